"""Security of the codemod and the compat runner, tested on real processes and real files.

1. The codemod reads code, it never imports or runs it: a tree (and notebooks) whose execution
   would write a marker file or crash is migrated, and no marker appears.
2. With --output-dir nothing outside that directory is written: symlinks into other places, `..`
   in the given paths, a symlinked subdirectory already in the output directory.
3. `python -m estimator_bridge.run` changes only the process it starts: afterwards a fresh
   interpreter still has no `tf.contrib`, and the installed TensorFlow is byte-unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
CONSOLE_SCRIPT = Path(sys.executable).parent / "estimator-migrate"
TF1 = "import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n"
FIXTURES = Path(__file__).resolve().parent / "fixtures_codemod"


def migrate(*argv: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """The installed console script in its own process, run from inside the user's tree."""
    environment = dict(os.environ, ESTIMATOR_MIGRATE_CACHE="off", **(env or {}))
    return subprocess.run([str(CONSOLE_SCRIPT), *argv], cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=300)


def snapshot(root: Path, exclude: Path | None = None) -> dict[str, str]:
    """Every entry under `root` (symlinks by their target, files by their hash), except `exclude`."""
    state = {}
    for path in sorted(root.rglob("*")):
        if exclude is not None and (path == exclude or exclude in path.parents):
            continue
        key = str(path.relative_to(root))
        if path.is_symlink():
            state[key] = "link:" + os.readlink(path)
        elif path.is_file():
            state[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            state[key] = "dir"
    return state


# ---------------------------------------------------------------- 1. never imports or runs input

def _booby_trapped_tree(root: Path, marker: Path) -> Path:
    """A project whose every file would leave `marker` (or crash) if imported or executed."""
    tree = root / "project"
    (tree / "pkg").mkdir(parents=True)
    trap = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\nraise SystemExit('executed')\n"
    for name in ("pkg/__init__.py", "pkg/train.py", "setup.py", "conftest.py", "__main__.py",
                 # names the codemod itself imports: a tool that put cwd on sys.path would run these
                 "tensorflow.py", "libcst.py", "json.py", "rich.py", "sitecustomize.py", "usercustomize.py"):
        (tree / name).write_text(trap + TF1)
    (tree / "pkg" / "model.py").write_text(TF1 + f"__import__('os').system('touch {marker}')\n")
    for notebook in sorted(FIXTURES.glob("*.ipynb")):
        text = notebook.read_text().replace("MARKER_PATH", str(marker))
        (tree / notebook.name).write_text(text)
    return tree


def test_migrating_a_booby_trapped_tree_never_runs_it(tmp_path):
    marker = tmp_path / "EXECUTED"
    tree = _booby_trapped_tree(tmp_path, marker)
    for argv in (["."], ["--check", "-j", "2", "."], ["--output-dir", str(tmp_path / "o"), "."], ["--in-place", "."]):
        done = migrate(*argv, cwd=tree)
        assert done.returncode == 1, (argv, done.stderr)  # something to rewrite, never a crash (2)
        assert not marker.exists(), f"{argv} executed input code: {marker.read_text()}"
    migrated = (tree / "pkg" / "train.py").read_text()
    assert "tf.compat.v1.train.AdamOptimizer" in migrated and "raise SystemExit('executed')" in migrated
    notebook = json.loads((tree / "trap_cells.ipynb").read_text())
    assert "tf.compat.v1.train.AdamOptimizer" in "".join(notebook["cells"][1]["source"])


def test_the_in_process_api_never_runs_input(tmp_path, monkeypatch):
    from migrate.api import discover, migrate_paths

    monkeypatch.setenv("ESTIMATOR_MIGRATE_CACHE", "off")
    marker = tmp_path / "EXECUTED"
    tree = _booby_trapped_tree(tmp_path, marker)
    modules_before = set(sys.modules)
    results = list(migrate_paths(discover([tree]), jobs=1))
    assert len(results) == 14 and all(r.changed for r in results)
    assert not marker.exists()
    assert not {m for m in set(sys.modules) - modules_before if m in ("pkg", "setup", "conftest", "project")}


# ---------------------------------------------------------------- 2. writes stay in --output-dir

def test_symlinks_in_the_input_never_lead_writes_outside(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "shared_model.py").write_text(TF1)
    (outside / "vendored").mkdir()
    (outside / "vendored" / "lib.py").write_text(TF1)
    tree = tmp_path / "project"
    tree.mkdir()
    (tree / "train.py").write_text(TF1)
    (tree / "model.py").symlink_to(outside / "shared_model.py")          # a file link leaving the tree
    (tree / "vendored").symlink_to(outside / "vendored", target_is_directory=True)  # a directory link
    (tree / "up").symlink_to(tmp_path, target_is_directory=True)          # a loop through the parent
    out = tmp_path / "out"
    before = snapshot(tmp_path, exclude=out)
    done = migrate(str(tree), "--output-dir", str(out), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert snapshot(tmp_path, exclude=out) == before
    assert "tf.compat.v1.train" in (out / "project" / "train.py").read_text()
    assert not any(p.is_symlink() for p in out.rglob("*"))


@pytest.mark.parametrize("given, cwd_part", [("..", "project/sub"), ("../../project", "project/sub"),
                                             ("project/sub/../../project", "")])
def test_dotdot_in_paths_maps_into_the_output_dir(tmp_path, given, cwd_part):
    tree = tmp_path / "project"
    (tree / "sub").mkdir(parents=True)
    (tree / "train.py").write_text(TF1)
    out = tmp_path / "out"
    before = snapshot(tmp_path, exclude=out)
    done = migrate(given, "--output-dir", str(out), cwd=tmp_path / cwd_part)
    assert done.returncode == 1, done.stderr
    assert snapshot(tmp_path, exclude=out) == before
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == ["project", "project/sub", "project/train.py"]


@pytest.mark.parametrize("kind", ["directory", "file"])
def test_symlink_already_in_the_output_dir_pointing_outside_is_refused(tmp_path, kind):
    tree = tmp_path / "project"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "train.py").write_text(TF1)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "train.py").write_text("# someone else's file\n")
    out = tmp_path / "out"
    (out / "project").mkdir(parents=True)
    if kind == "directory":
        link, target = out / "project" / "pkg", victim
    else:
        (out / "project" / "pkg").mkdir()
        link, target = out / "project" / "pkg" / "train.py", victim / "train.py"
    link.symlink_to(target)
    before = snapshot(victim)
    done = migrate(str(tree), "--output-dir", str(out), cwd=tmp_path)
    assert done.returncode == 2
    assert f"{link} is a symlink to {target}, outside the output directory {out}" in done.stderr
    assert "remove it or choose an empty --output-dir" in done.stderr
    assert snapshot(victim) == before


def test_output_dir_that_is_itself_a_symlink_is_written_where_it_points(tmp_path):
    tree = tmp_path / "project"
    tree.mkdir()
    (tree / "train.py").write_text(TF1)
    real = tmp_path / "real_out"
    real.mkdir()
    (tmp_path / "out").symlink_to(real, target_is_directory=True)
    done = migrate(str(tree), "--output-dir", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "tf.compat.v1.train" in (real / "project" / "train.py").read_text()


# ---------------------------------------------------------------- 3. the runner changes only its process

def _installed_tensorflow_state() -> dict[str, str]:
    """Hashes of the installed TensorFlow's entry modules, its file list and the import hooks."""
    import importlib.util

    spec = importlib.util.find_spec("tensorflow")
    package = Path(spec.origin).parent
    site = package.parent
    state = {str(p.relative_to(site)): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in (package / "__init__.py", package / "compat" / "v1" / "__init__.py") if p.exists()}
    # The ways one process could change the next one's imports: .pth files and site/user customize
    # modules (the full listing is not compared: other work installs packages into the shared venv).
    for hook in sorted(site.glob("*.pth")) + sorted(site.glob("*customize.py")):
        state[hook.name] = hashlib.sha256(hook.read_bytes()).hexdigest()
    state["tensorflow entries"] = hashlib.sha256("\n".join(sorted(os.listdir(package))).encode()).hexdigest()
    return state


@pytest.mark.slow
def test_compat_runner_changes_only_the_process_it_starts(tmp_path):
    script = tmp_path / "legacy.py"
    script.write_text("import tensorflow as tf\n"
                      "assert tf.contrib.tpu.TPUEstimator is not None\n"
                      "print('CONTRIB', tf.contrib.tpu.TPUEstimator.__module__)\n")
    probe = [sys.executable, "-c", "import tensorflow as tf\ntry:\n    tf.contrib\nexcept AttributeError as e:\n"
             "    print('NO-CONTRIB', e)\nelse:\n    print('HAS-CONTRIB')\n"]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    before = _installed_tensorflow_state()
    assert "NO-CONTRIB" in subprocess.run(probe, capture_output=True, text=True, env=env, cwd=tmp_path).stdout
    ran = subprocess.run([sys.executable, "-m", "estimator_bridge.run", str(script)], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=600)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert "CONTRIB estimator_bridge" in ran.stdout
    after = subprocess.run(probe, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert "NO-CONTRIB" in after.stdout and "HAS-CONTRIB" not in after.stdout, after.stdout + after.stderr
    assert _installed_tensorflow_state() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["legacy.py"]  # nothing left beside the script


def test_a_link_to_a_sibling_folder_of_the_tree_is_kept_as_a_link_to_the_migrated_sibling(tmp_path):
    # xuzhezhaozhao/ai tf/slim/image_models (2018): finetune/nets -> ../nets, finetune/preprocessing
    # -> ../preprocessing; the migrated finetune/main.py stopped at `from preprocessing import ...`
    tree = tmp_path / "image_models"
    (tree / "nets").mkdir(parents=True)
    (tree / "nets" / "lenet.py").write_text(TF1)
    (tree / "finetune").mkdir()
    (tree / "finetune" / "main.py").write_text(TF1)
    (tree / "finetune" / "nets").symlink_to("../nets/", target_is_directory=True)
    (tree / "finetune" / "loop").symlink_to("..", target_is_directory=True)      # contains the link
    (tree / "finetune" / "absolute").symlink_to(tree / "nets", target_is_directory=True)
    out = tmp_path / "out"
    before = snapshot(tmp_path, exclude=out)
    done = migrate(str(tree), "--output-dir", str(out), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert snapshot(tmp_path, exclude=out) == before
    link = out / "image_models" / "finetune" / "nets"
    assert link.is_symlink() and link.resolve() == (out / "image_models" / "nets").resolve()
    assert "tf.compat.v1.train" in (link / "lenet.py").read_text()        # the migrated sibling
    assert sorted(p.name for p in out.rglob("*") if p.is_symlink()) == ["nets"]
