"""A copy of the files the distribution is built from, as they are in the checkout now, so that
builds and pre-commit clones never write into the checkout."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_PARTS = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "estimator_bridge/", "migrate/", "verify/")


def copy_packaged_files(dest: Path) -> Path:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for name in names.splitlines():
        if name.startswith(PACKAGE_PARTS) and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest
