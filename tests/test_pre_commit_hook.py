"""The shipped pre-commit hook (.pre-commit-hooks.yaml) run by the real pre-commit on a scratch git
repository: it fails while a file still needs migrating and passes once it is migrated.

pre-commit builds the hook's own environment by pip-installing this package; nothing is
downloaded: pip gets no index, and the dependencies are found on the test interpreter's
site-packages (PYTHONPATH), the build backend too (no build isolation)."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.support.packaged_copy import copy_packaged_files

CONTRIB_SCRIPT = "import tensorflow as tf\nw = tf.contrib.layers.xavier_initializer()\n"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def hook_repository(dest: Path) -> str:
    """A git repository of this checkout's packaged files as they are now; returns its commit."""
    copy_packaged_files(dest)
    git(dest, "init", "-q")
    git(dest, "add", ".")
    git(dest, "commit", "-q", "-m", "hook")
    return git(dest, "rev-parse", "HEAD")


@pytest.mark.slow
def test_the_hook_fails_on_unmigrated_code_and_passes_after_migration(tmp_path, monkeypatch):
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    assert pre_commit, "pre-commit is not installed next to the interpreter (it is pinned in the dev extras)"
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "test")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "test@example.com")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PIP_NO_INDEX": "1",
           "PIP_NO_BUILD_ISOLATION": "0", "PYTHONPATH": sysconfig.get_paths()["purelib"]}
    env.pop("VIRTUAL_ENV", None)
    hooks, project = tmp_path / "hooks", tmp_path / "project"
    hooks.mkdir()
    project.mkdir()
    revision = hook_repository(hooks)
    (project / "train.py").write_text(CONTRIB_SCRIPT)
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks}\n    rev: {revision}\n    hooks:\n      - id: estimator-migrate\n")
    git(project, "init", "-q")
    git(project, "add", ".")

    failing = subprocess.run([pre_commit, "run", "--all-files"], cwd=project, env=env,
                             capture_output=True, text=True, timeout=600)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "estimator-migrate --check" in failing.stdout and "Failed" in failing.stdout
    assert "1 would be rewritten" in failing.stdout

    migrate = subprocess.run([sys.executable, "-m", "migrate", "--in-place", "train.py"], cwd=project,
                             capture_output=True, text=True)
    assert migrate.returncode == 1 and "tf.contrib" not in (project / "train.py").read_text()
    git(project, "add", ".")
    passing = subprocess.run([pre_commit, "run", "--all-files"], cwd=project, env=env,
                             capture_output=True, text=True, timeout=600)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
