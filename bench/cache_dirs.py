"""Default places for fetched code and run outputs: under the user's cache directory.

Fetched repositories, the materialised corpus and the test bed's sources are never part of the
repository; tools that need them take a flag, then an environment variable, then these defaults
(``$XDG_CACHE_HOME/estimator-bridge/...``, ``~/.cache/estimator-bridge/...`` without it).
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_home() -> Path:
    """``$XDG_CACHE_HOME/estimator-bridge`` (``~/.cache/estimator-bridge`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "estimator-bridge"


def configured(variable: str, *default: str) -> Path:
    """The path in environment variable `variable`, else cache_home()/default."""
    value = os.environ.get(variable)
    return Path(value) if value else cache_home().joinpath(*default)


def mirror() -> Path:
    """Bare git snapshots, ``<mirror>/<owner>+<name>/repo`` ($ESTIMATOR_BRIDGE_MIRROR)."""
    return configured("ESTIMATOR_BRIDGE_MIRROR", "mirror")


def corpus() -> Path:
    """The materialised real-code corpus ($ESTIMATOR_BRIDGE_CORPUS)."""
    return configured("ESTIMATOR_BRIDGE_CORPUS", "corpus")


def fill_mirror_hint(repo: str, mirror_dir: Path) -> str:
    """How to fetch one repository into the mirror."""
    return (f"git clone --bare https://github.com/{repo} "
            f"{mirror_dir / repo.replace('/', '+') / 'repo'}")
