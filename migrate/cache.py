"""Result cache for files with nothing to rewrite: a re-run skips parsing them.

Key: sha256 of (this package's own source and the bridge's, the file's suffix, the file's bytes),
so any change to the codemods, the tables, the bridge whose names the final check looks up
(migrate/existence.py) or the file is a miss. A file with a star import is never cached: what it
means depends on the module it imports (migrate/star_imports.py), not on its own bytes. Only
results without changes are stored (their
findings included; the pre-filter's answers too, so that a re-run over an unchanged tree parses
nothing); a file that changes is always migrated for real. Location:
$ESTIMATOR_MIGRATE_CACHE, else $XDG_CACHE_HOME/estimator-migrate, else ~/.cache/estimator-migrate;
ESTIMATOR_MIGRATE_CACHE=off (or --no-cache) turns it off.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

from migrate.findings import FileResult, Finding, Location

PACKAGE = Path(__file__).resolve().parent


def _bridge_package() -> Path | None:
    from migrate.existence import _bridge_root  # noqa: PLC0415 (existence imports the tables)

    return _bridge_root()


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """Hash of every source file of the migrate package (code and tables) and of the bridge."""
    digest = hashlib.sha256()
    for package in (PACKAGE, _bridge_package()):
        if package is None:
            continue
        for path in sorted(package.rglob("*.py")):
            digest.update(package.name.encode() + b"/" + path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _depends_on_other_files(data: bytes) -> bool:
    """A star import may bind TensorFlow names from a module of the tree (its bytes are not ours)."""
    return b"import *" in data


def cache_dir() -> Path | None:
    configured = os.environ.get("ESTIMATOR_MIGRATE_CACHE")
    if configured == "off":
        return None
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "estimator-migrate"


def _key(path: str, data: bytes) -> str:
    from migrate.keras_target import keras_target  # the same bytes migrate otherwise for another Keras

    return hashlib.sha256(fingerprint().encode() + Path(path).suffix.encode() + b"\0%d\0" % keras_target()
                          + data).hexdigest()


def load(path: str, data: bytes) -> FileResult | None:
    """The cached no-change result for these bytes, or None."""
    root = cache_dir()
    if root is None or _depends_on_other_files(data):
        return None
    entry = root / fingerprint() / _key(path, data)[:2] / _key(path, data)
    try:
        stored = json.loads(entry.read_text())
    except (OSError, ValueError):
        return None
    findings = tuple(Finding(Location(*f["location"]), f["code"], f["message"], f["hint"]) for f in stored["findings"])
    return FileResult(path, data, None, findings, stored["skipped"])


def store(result: FileResult) -> None:
    """Remember a result without changes (anything else is ignored)."""
    root = cache_dir()
    if (root is None or result.migrated is not None or any(f.code == "MIG006" for f in result.findings)
            or _depends_on_other_files(result.original)):
        return
    key = _key(result.path, result.original)
    folder = root / fingerprint() / key[:2]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        payload = {"skipped": result.skipped, "findings": [
            {"location": [f.location.line, f.location.column, f.location.cell, f.location.cell_line],
             "code": f.code, "message": f.message, "hint": f.hint} for f in result.findings]}
        handle, temp = tempfile.mkstemp(dir=folder)
        with os.fdopen(handle, "w") as stream:
            json.dump(payload, stream)
        os.replace(temp, folder / key)
    except OSError:
        pass  # a cache that cannot be written is only slower
