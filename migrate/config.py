"""A repository's defaults for estimator-migrate: the `[tool.estimator-migrate]` table of its
pyproject.toml (ruff's `[tool.ruff]` convention). Command-line flags win over it.

    [tool.estimator-migrate]
    select = ["MIG3"]          # or "MIG3,MIG4"
    ignore = ["MIG103"]
    tpu-readiness = true

The file is the one given with --config, else the nearest pyproject.toml at or above the common
folder of the paths on the command line (the current folder for stdin), as black looks for it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Sequence

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TABLE = "estimator-migrate"

# key in the table -> (argparse dest, accepted Python types); list options take a list or a
# comma-separated string.
KEYS: dict[str, tuple[str, tuple[type, ...]]] = {
    "select": ("select", (list, str)),
    "ignore": ("ignore", (list, str)),
    "tpu-readiness": ("tpu_readiness", (bool,)),
    "annotate": ("annotate", (bool,)),
    "jobs": ("jobs", (int,)),
    "format": ("format", (str,)),
    "quiet": ("quiet", (bool,)),
    "keras": ("keras", (int,)),
}
CHOICES = {"format": ("text", "json", "sarif"), "keras": (2, 3)}
LIST_KEYS = frozenset({"select", "ignore"})


class ConfigError(ValueError):
    """The table is malformed: names the file, the key and what is accepted."""


def find(paths: Sequence[str], start: Path | None = None) -> Path | None:
    """The nearest pyproject.toml at or above the paths' common folder."""
    folders = [Path(p).resolve() for p in paths if p != "-"] or [start or Path.cwd()]
    common = Path(os.path.commonpath([str(f if f.is_dir() else f.parent) for f in folders]))
    for folder in (common, *common.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load(path: Path) -> dict[str, Any]:
    """The table's options as argparse dests (lists of codes for select/ignore)."""
    try:
        document = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: cannot read it: {error}") from error
    table = document.get("tool", {}).get(TABLE, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.{TABLE}] must be a table")
    options: dict[str, Any] = {}
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(f"{path}: [tool.{TABLE}] has no option {key!r}; known: {', '.join(sorted(KEYS))}")
        dest, types = KEYS[key]
        if type(value) not in types or (list in types and isinstance(value, list)
                                         and not all(isinstance(v, str) for v in value)):
            expected = " or ".join("a list of strings" if t is list else t.__name__ for t in types)
            raise ConfigError(f"{path}: [tool.{TABLE}] {key} = {value!r}: expected {expected}")
        if key in CHOICES and value not in CHOICES[key]:
            raise ConfigError(f"{path}: [tool.{TABLE}] {key} = {value!r}: expected one of {CHOICES[key]}")
        options[dest] = [value] if key in LIST_KEYS and isinstance(value, str) else value
    return options
