"""The oracle's runs of one program, kept for the next verify of the same program (`--reuse-oracle`).

The oracle's runs (3 training runs, up to 3 evaluations of its final checkpoint) are most of a
verify's time and depend only on the program, its arguments and overrides, the oracle, the
packages added to it and verify's own in-oracle code -- not on the sides. The test bed
(`make testbed`) verifies each program again after every change to the bridge: with this cache a
rerun runs the sides only.

Key: sha256 of what decides the oracle runs' results, and nothing else: the program's files
(every file under its source root and its --path folders, by path and content), its arguments,
steps and overrides, the oracle's name and recipe fingerprint (verify/oracles.py: its Python,
TensorFlow and pins), --with packages, the run plan (the number of oracle runs, how each spread
run is started: verify/oracle_plan.py for this machine's CPUs, the exact phase and its
arguments) and RUNS_VERSION. The rest of verify's source is not part of the key: a change to
the judge, the report or the sides keeps the kept runs. RUNS_VERSION stands for the code that
runs in or for the oracle (IN_ORACLE: the harvest's format and values, the wrappers the program
runs under, the nudge) and for the kept state's format: bump it when a change there alters what
an oracle run produces or what is kept (tests/verify/test_oracle_cache.py holds a digest of
IN_ORACLE that fails until the change is acknowledged). Data files the arguments name are NOT
part of the key: a program whose data changed must be verified without --reuse-oracle (the test
bed's data are generated, the same on every run).

What is kept: the work folder's `oracle/` and `start_state/` folders and the oracle's part of
the result (oracle_state.json). Only a verify whose oracle runs all succeeded is kept. Oracle
runs escalation adds (verify/escalation.py) are kept under the same key as they are made
(`escalation/`: each run's folder, harvest and its entry), and a later escalation of the same
program takes them first, in order, before it runs more.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from verify import oracle_plan, oracles
from verify.oracle_recipes import RECIPES

VERIFY = Path(__file__).resolve().parent
# What oracle runs produce and what is kept of them: bump when a change alters either (the
# harvest's format or values, the wrappers IN_ORACLE, the nudge, pipeline.Runner._oracle_state).
RUNS_VERSION = 5  # 4: TF 1.x Keras batch values weighted by their logged rows; 5: TF 2.x models built before fit
# verify's code that runs inside the oracle or on its runs' results; RUNS_VERSION stands for it
IN_ORACLE = ("harvest.py", "race_order.py", "global_step_race.py", "notebook_script.py", "keras_record.py",
             "nudge.py")
STATE = "oracle_state.json"
ESCALATION, ESCALATION_STATE = "escalation", "escalation.json"
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


def in_oracle_digest() -> str:
    """sha256 of IN_ORACLE's files: what RUNS_VERSION stands for (pinned in the tests, see RUNS_VERSION)."""
    digest = hashlib.sha256()
    for name in IN_ORACLE:
        digest.update(name.encode() + b"\0" + (VERIFY / name).read_bytes())
    return digest.hexdigest()[:16]


def run_plan(options, cpus: int | None = None) -> list[dict]:
    """How each oracle run is started (oracle_plan.spread_run for every case it distinguishes)."""
    return [{"index": index, "alternate_onednn": alternate, "recorded_start": recorded_start,
             **oracle_plan.spread_run(index, alternate_onednn=alternate, cpus=cpus,
                                      recorded_start=recorded_start).as_json()}
            for index in range(2, options.oracle_runs + 1) for alternate in (False, True)
            for recorded_start in (False, True)]


def key(program, options, oracle: str) -> str:
    """The cache key of one program's oracle runs (see the module docstring)."""
    digest = hashlib.sha256()

    def add(*parts) -> None:
        for part in parts:
            digest.update(str(part).encode() + b"\0")

    recipe = RECIPES.get(oracle)
    add(f"oracle-runs v{RUNS_VERSION}", oracle, oracles.fingerprint(recipe) if recipe else "-", program.steps,
        *program.args, options.oracle_runs, options.exact, options.exact_args, *options.extras)
    add(json.dumps(run_plan(options), sort_keys=True))
    add(json.dumps(program.notebook.as_json() if program.notebook else None, sort_keys=True))
    for folder in (program.root, *program.python_path, program.script):
        for path in _files(Path(folder)):
            if path.stat().st_size <= MAX_FILE_BYTES:
                add(path.relative_to(folder) if path != folder else path.name)
                digest.update(hashlib.sha256(path.read_bytes()).digest())
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


def kept_escalation_runs(cache_key: str) -> list[dict]:
    """The escalation runs kept under the key, in the order they were made (their verify.json entries)."""
    state = cache_folder() / cache_key / ESCALATION / ESCALATION_STATE
    return json.loads(state.read_text()) if state.exists() else []


def restore_escalation_run(cache_key: str, entry: dict, folder: Path) -> None:
    """Copy one kept escalation run (its model_dir and harvest, named by `entry`) into `folder`."""
    source = cache_folder() / cache_key / ESCALATION
    name = entry["model_dir"]
    shutil.copytree(source / name, folder / name)
    shutil.copyfile(source / f"{name}.harvest.json", folder / f"{name}.harvest.json")


def store_escalation_run(cache_key: str, folder: Path, entry: dict) -> None:
    """Keep one escalation run made in `folder` after those kept before (only under a key whose
    oracle runs are kept: the runs before it must be the same)."""
    root = cache_folder() / cache_key
    if not (root / STATE).exists():
        return
    target = root / ESCALATION
    target.mkdir(exist_ok=True)
    name = entry["model_dir"]
    if (target / name).exists():
        return
    shutil.copytree(folder / name, target / name)
    shutil.copyfile(folder / f"{name}.harvest.json", target / f"{name}.harvest.json")
    entries = [*kept_escalation_runs(cache_key), entry]
    partial = target / f"{ESCALATION_STATE}.partial-{os.getpid()}"
    partial.write_text(json.dumps(entries))
    partial.replace(target / ESCALATION_STATE)
