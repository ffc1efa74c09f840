"""The command line on temporary trees: exit codes, bytes on disk, diff, check, output-dir, reports."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.cli import main

TF1 = "import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n"
TF1_MIGRATED = "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer(0.1)\n"
CLEAN = "import tensorflow as tf\nx = tf.constant(1)\n"
UNSUPPORTED = "import tensorflow as tf\nhp = tf.contrib.graph_editor.graph_replace(a=1)\n"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Each test gets its own result cache (never the user's)."""
    monkeypatch.setenv("ESTIMATOR_MIGRATE_CACHE", str(tmp_path / "test-cache"))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "train.py").write_bytes(TF1.replace("\n", "\r\n").encode())
    (root / "pkg" / "clean.py").write_text(CLEAN)
    (root / "pkg" / "hparams.py").write_text(UNSUPPORTED)
    (root / "py2.py").write_text("import tensorflow as tf\nprint 'old'\n")
    (root / "README.md").write_text("# a repo\n")
    (root / ".git").mkdir()
    (root / ".git" / "ignored.py").write_text(TF1)
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_default_reports_and_writes_nothing(tree, capsys):
    before = snapshot(tree)
    assert main([str(tree), "-j", "1"]) == 1
    out = capsys.readouterr().out
    assert f"{tree}/pkg/train.py: would be rewritten" in out
    assert f"{tree}/pkg/hparams.py:2:6: MIG301 warning" in out
    assert f"{tree}/py2.py:2:" in out and "MIG002 error" in out
    assert "4 file(s) scanned, 1 would be rewritten, 2 finding(s) (1 error(s)), 1 skipped" in out
    assert snapshot(tree) == before


def test_summary_counts_findings_per_code_and_lists_the_files_that_need_work(tree, capsys):
    assert main([str(tree), "-q"]) == 1
    out = capsys.readouterr().out
    assert "findings by code:\n  MIG002 error       1  Python 2 source; skipped\n" in out
    assert "  MIG301 warning     1  tf.contrib name without a current equivalent\n" in out
    assert "2 file(s) still need work (errors first):\n" \
           f"  {tree}/py2.py: 1 error(s), 0 warning(s)\n  {tree}/pkg/hparams.py: 0 error(s), 1 warning(s)\n" in out
    assert f"{tree}/pkg/train.py" not in out  # rewritten, nothing left to do


def test_clean_tree_exits_zero(tmp_path, capsys):
    (tmp_path / "clean.py").write_text(CLEAN)
    assert main([str(tmp_path)]) == 0


def test_in_place_rewrites_changed_files_only_keeping_crlf(tree):
    before = snapshot(tree)
    assert main([str(tree), "--in-place", "-j", "1"]) == 1
    after = snapshot(tree)
    assert after["pkg/train.py"] == TF1_MIGRATED.replace("\n", "\r\n").encode()
    assert {k for k in after if after[k] != before[k]} == {"pkg/train.py"}
    assert not list(tree.rglob("*.migrate-tmp"))
    # A second run has nothing left to rewrite; the findings remain.
    assert main([str(tree), "--check", "-j", "1"]) == 1  # py2.py is an error finding
    assert main([str(tree / "pkg"), "--check", "-j", "1"]) == 0


def test_check_exits_one_when_something_would_change(tree):
    before = snapshot(tree)
    assert main([str(tree / "pkg" / "train.py"), "--check"]) == 1
    assert main([str(tree / "pkg" / "hparams.py"), "--check"]) == 0  # warnings do not fail --check
    assert snapshot(tree) == before


def test_diff_prints_a_unified_diff(tree, capsys):
    assert main([str(tree / "pkg" / "train.py"), "--diff"]) == 1
    out = capsys.readouterr().out
    assert "-opt = tf.train.AdamOptimizer(0.1)\r\n" in out
    assert "+opt = tf.compat.v1.train.AdamOptimizer(0.1)\r\n" in out


def test_output_dir_mirrors_the_tree(tree, tmp_path):
    out = tmp_path / "out"
    assert main([str(tree), "--output-dir", str(out), "-j", "2"]) == 1
    mirrored = snapshot(out / "repo")
    assert mirrored["pkg/train.py"] == TF1_MIGRATED.replace("\n", "\r\n").encode()
    assert mirrored["pkg/clean.py"] == CLEAN.encode()
    assert mirrored["README.md"] == b"# a repo\n"
    assert ".git/ignored.py" not in mirrored
    assert (tree / "pkg" / "train.py").read_bytes() == TF1.replace("\n", "\r\n").encode()


def test_parallel_output_is_identical_to_serial(tmp_path, capsys):
    for index in range(12):
        (tmp_path / f"m{index:02d}.py").write_text(TF1 if index % 2 else UNSUPPORTED)
    main([str(tmp_path), "-j", "1"])
    serial = capsys.readouterr().out
    main([str(tmp_path), "-j", "2"])
    assert capsys.readouterr().out == serial


def test_json_and_sarif_reports(tree, tmp_path):
    report = tmp_path / "report.json"
    main([str(tree / "pkg"), "--report", str(report), "--format", "json"])
    data = json.loads(report.read_text())
    by_path = {Path(f["path"]).name: f for f in data["files"]}
    assert by_path["train.py"]["changed"] is True
    assert [(f["code"], f["line"], f["column"]) for f in by_path["hparams.py"]["findings"]] == [("MIG301", 2, 6)]
    sarif = tmp_path / "report.sarif"
    main([str(tree / "pkg"), "--report", str(sarif), "--format", "sarif"])
    run = json.loads(sarif.read_text())["runs"][0]
    assert run["tool"]["driver"]["name"] == "estimator-migrate"
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]) for r in run["results"]] == \
        [("MIG301", {"startLine": 2, "startColumn": 6})]


def test_select_and_ignore_filter_findings(tree, capsys):
    assert main([str(tree / "pkg" / "hparams.py"), "--ignore", "MIG3"]) == 0
    assert main([str(tree / "pkg" / "hparams.py"), "--select", "MIG301"]) == 1
    assert main([str(tree), "--select", "MIG9"]) == 2
    assert "unknown finding code" in capsys.readouterr().err


def test_list_names_codemods_and_codes(capsys):
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert "TPUEstimatorToBridge" in out and "MIG202" in out


def test_usage_errors_exit_two(tmp_path, capsys):
    assert main([]) == 2
    assert main([str(tmp_path / "missing.py")]) == 2
    assert main(["--jobs", "0", str(tmp_path)]) == 2
    assert main(["--no-such-flag"]) == 2


def test_console_script_reads_stdin_and_writes_stdout():
    script = Path(sys.executable).with_name("estimator-migrate")
    completed = subprocess.run([str(script), "-"], input=TF1.encode(), capture_output=True, timeout=120)
    assert completed.returncode == 1
    assert completed.stdout == TF1_MIGRATED.encode()
    completed = subprocess.run([str(script), "-"], input=CLEAN.encode(), capture_output=True, timeout=120)
    assert (completed.returncode, completed.stdout) == (0, CLEAN.encode())


def test_python_dash_m_migrate_is_the_same_command(tree):
    completed = subprocess.run([sys.executable, "-m", "migrate", "--check", str(tree / "pkg" / "clean.py")],
                               capture_output=True, timeout=120, cwd=Path(__file__).parents[2])
    assert completed.returncode == 0, completed.stderr


def test_rerun_uses_the_cache_and_reports_the_same(tree, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ESTIMATOR_MIGRATE_CACHE", str(tmp_path / "cache"))
    assert main([str(tree), "-j", "1"]) == 1
    first = capsys.readouterr().out
    stored = list((tmp_path / "cache").rglob("*"))
    assert [p for p in stored if p.is_file()], "no-change results are cached"
    assert main([str(tree), "-j", "1"]) == 1
    assert capsys.readouterr().out == first
    assert main([str(tree), "-j", "1", "--no-cache"]) == 1
    assert capsys.readouterr().out == first


def test_notebooks_in_a_tree_are_migrated_and_located_by_cell(tmp_path, capsys):
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import tensorflow as tf"),
                nbformat.v4.new_code_cell("if True:\n  !ls\nhp = tf.contrib.graph_editor.graph_replace(a=1)\n"
                                          "opt = tf.train.AdamOptimizer(0.1)")]
    (tmp_path / "nb.ipynb").write_text(nbformat.writes(nb))
    out = tmp_path / "out"
    assert main([str(tmp_path / "nb.ipynb"), "--output-dir", str(out)]) == 1
    assert f"{tmp_path}/nb.ipynb:cell 2:3: MIG301 warning" in capsys.readouterr().out
    migrated = nbformat.reads((out / "nb.ipynb").read_text(), as_version=4)
    assert migrated.cells[1].source == ("if True:\n  !ls\nhp = tf.contrib.graph_editor.graph_replace(a=1)\n"
                                        "opt = tf.compat.v1.train.AdamOptimizer(0.1)")
