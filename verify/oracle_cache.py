"""The oracle's runs of one program, kept for the next verify of the same program (`--reuse-oracle`).

The oracle's runs (3 training runs, up to 3 evaluations of its final checkpoint) are most of a
verify's time and depend only on the program, its arguments and overrides, the oracle, the
packages added to it and verify's own in-oracle code -- not on the sides. The test bed
(`make testbed`) verifies each program again after every change to the bridge: with this cache a
rerun runs the sides only.

Key: sha256 of the program's files (every file under its source root and its --path folders,
by path and content), its arguments, steps, overrides, the oracle, --with packages, the number of
oracle runs, the exact phase's arguments, and the files of verify that run inside the oracle.
Data files the arguments name are NOT part of the key: a program whose data changed must be
verified without --reuse-oracle (the test bed's data are generated, the same on every run).
What is kept: the work folder's `oracle/` and `start_state/` folders and the oracle's part of
the result (oracle_state.json). Only a verify whose oracle runs all succeeded is kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from verify import oracles

VERIFY = Path(__file__).resolve().parent
# verify's code that runs inside the oracle or decides what its runs are
IN_ORACLE = ("harvest.py", "race_order.py", "global_step_race.py", "oracle_plan.py", "notebook_script.py",
             "keras_record.py", "pipeline.py")
STATE = "oracle_state.json"
FOLDERS = ("oracle", "start_state")
MAX_FILE_BYTES = 50_000_000


def cache_folder() -> Path:
    return oracles.cache_root().parent / "oracle-runs"


def _files(folder: Path):
    if folder.is_file():
        yield folder
        return
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
        for name in sorted(names):
            yield Path(root) / name


def key(program, options, oracle: str) -> str:
    """The cache key of one program's oracle runs (see the module docstring)."""
    digest = hashlib.sha256()

    def add(*parts) -> None:
        for part in parts:
            digest.update(str(part).encode() + b"\0")

    add("oracle-runs v1", oracle, program.steps, *program.args, options.oracle_runs, options.exact,
        options.exact_args, *options.extras)
    add(json.dumps(program.notebook.as_json() if program.notebook else None, sort_keys=True))
    for folder in (program.root, *program.python_path, program.script):
        for path in _files(Path(folder)):
            if path.stat().st_size <= MAX_FILE_BYTES:
                add(path.relative_to(folder) if path != folder else path.name)
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    for name in IN_ORACLE:
        digest.update(hashlib.sha256((VERIFY / name).read_bytes()).digest())
    return digest.hexdigest()[:32]


def store(cache_key: str, work: Path, state: dict) -> None:
    """Keep the work folder's oracle runs under the key (written aside, then renamed into place)."""
    target = cache_folder() / cache_key
    if target.exists():
        return
    partial = target.with_name(f"{cache_key}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    for name in FOLDERS:
        if (work / name).exists():
            shutil.copytree(work / name, partial / name)
    (partial / STATE).write_text(json.dumps(state))
    try:
        partial.rename(target)
    except OSError:  # another verify stored it meanwhile
        shutil.rmtree(partial, ignore_errors=True)


def restore(cache_key: str, work: Path) -> dict | None:
    """Copy the kept oracle runs into the work folder; their state, or None when there are none."""
    source = cache_folder() / cache_key
    if not (source / STATE).exists():
        return None
    for name in FOLDERS:
        if (source / name).exists():
            shutil.copytree(source / name, work / name)
    return json.loads((source / STATE).read_text())
