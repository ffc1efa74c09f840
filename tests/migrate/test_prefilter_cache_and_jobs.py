"""Where the fast paths meet the API: the pre-filter answers before the result cache, the cache
holds exactly the results that needed libcst, and `-j` balances work without changing the order."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrate import cache
from migrate.api import migrate_file, migrate_paths, work_groups

MIGRATED = "import tensorflow as tf\n\nopt = tf.compat.v1.train.AdamOptimizer(0.1)\n"
# (a contrib class nothing rewrites, read by nothing: reported, left as written)
FINDINGS_ONLY = "import tensorflow as tf\n\ndecoder = tf.contrib.seq2seq.BasicDecoder\n"
TF1 = "import tensorflow as tf\n\nsession = tf.Session()\n"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def private_cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("ESTIMATOR_MIGRATE_CACHE", str(root))
    return root


def cached_entries(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_the_cache_holds_every_result_without_changes(tmp_path, private_cache):
    files = {}
    for name, text in (("migrated.py", MIGRATED), ("findings_only.py", FINDINGS_ONLY), ("tf1.py", TF1)):
        files[name] = tmp_path / name
        files[name].write_text(text)
    results = {name: migrate_file(str(path)) for name, path in files.items()}
    assert results["migrated.py"].findings == () and not results["migrated.py"].changed
    assert [f.code for f in results["findings_only.py"].findings] and not results["findings_only.py"].changed
    assert results["tf1.py"].changed
    # the pre-filter's answer and the full pipeline's are cached (an unchanged re-run parses
    # nothing); the changed file never is
    assert len(cached_entries(private_cache)) == 2
    for name in ("migrated.py", "findings_only.py"):
        assert cache.load(str(files[name]), files[name].read_bytes()) == results[name]
    assert cache.load(str(files["tf1.py"]), files["tf1.py"].read_bytes()) is None


def test_a_cached_rerun_reports_the_same(tmp_path, private_cache):
    path = tmp_path / "findings_only.py"
    path.write_text(FINDINGS_ONLY)
    first = migrate_file(str(path))
    assert cached_entries(private_cache)
    assert migrate_file(str(path)) == first


def test_work_groups_keep_path_order_and_give_a_large_file_its_own_group(tmp_path):
    names = []
    for index, size in enumerate([10, 10, 10, 5000, 10, 10, 10, 10]):
        path = tmp_path / f"{index}.py"
        path.write_text("#" * size)
        names.append(str(path))
    groups = work_groups(names, jobs=2, per_worker=2)
    assert [name for group, _ in groups for name in group] == names
    assert ([names[3]], 5000) in groups
    assert sum(weight for _, weight in groups) == 5070


def test_two_workers_give_the_results_of_one_in_the_same_order(tmp_path, private_cache):
    paths = sorted(FIXTURES.rglob("*.before.py"))[:4] + sorted((FIXTURES / "noop").glob("*.py"))[:4]
    assert len(paths) == 8
    serial = list(migrate_paths(paths, jobs=1))
    parallel = list(migrate_paths(paths, jobs=2))
    assert [r.path for r in parallel] == [str(p) for p in paths]
    assert parallel == serial


def test_a_star_importing_file_follows_the_module_it_imports_on_a_cached_rerun(tmp_path, private_cache):
    # The result of `from utils import *` depends on utils.py, not on the file's own bytes: with
    # the bytes as the key, a run where utils exported nothing (its __all__) answered a later run
    # where it exports `tf` with "unchanged" (found by test_star_imports failing in a full run).
    main = tmp_path / "main.py"
    main.write_text("from utils import *\n\nsession = tf.Session()\n")
    (tmp_path / "utils.py").write_text("import tensorflow as tf\n__all__ = ['helper']\n")
    assert not migrate_file(str(main)).changed
    (tmp_path / "utils.py").write_text("import tensorflow as tf\n")
    assert migrate_file(str(main)).migrated.decode().endswith("session = tf.compat.v1.Session()\n")
    assert not [p for p in cached_entries(private_cache)]


def test_the_key_changes_with_the_bridge_whose_names_the_final_check_reads(tmp_path, monkeypatch):
    bridge = tmp_path / "estimator_bridge"
    bridge.mkdir()
    (bridge / "__init__.py").write_text("Estimator = 1\n")
    monkeypatch.setattr(cache, "_bridge_package", lambda: bridge)
    cache.fingerprint.cache_clear()
    before = cache.fingerprint()
    (bridge / "__init__.py").write_text("Estimator = 2\n")
    cache.fingerprint.cache_clear()
    try:
        assert cache.fingerprint() != before
    finally:
        monkeypatch.undo()
        cache.fingerprint.cache_clear()
