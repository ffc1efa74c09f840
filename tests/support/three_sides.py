"""Run one unchanged TF1 program on the three sides a user has, and read the JSON line it prints.

* oracle: `.oracle/tf115/bin/python PROGRAM ARGS` (TF 1.15, what the numbers must be);
* runner: `python -m estimator_bridge.run PROGRAM ARGS` on current TensorFlow;
* migrated: `estimator-migrate --output-dir` on a copy, then `python MIGRATED ARGS`.

`{model_dir}` in ARGS is replaced by a fresh directory per side. Every side returns
`Side(returncode, result, stderr)`: result is the last JSON line of stdout (None when there is
none), so tests can compare numbers and also assert on failures (what a program raises on
TF 1.15 must be what it raises on the other sides).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python

SIDES = ("oracle", "runner", "migrated")


@dataclasses.dataclass
class Side:
    name: str
    returncode: int
    result: dict | None
    stderr: str


def _last_json(stdout: str):
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else None


def _env(current: bool) -> dict:
    env = oracle_env()
    if current:
        env["PYTHONPATH"] = str(REPO_ROOT)
    return env


def migrate_copy(program: Path, folder: Path) -> Path:
    """The program rewritten by `estimator-migrate --output-dir` (the CLI, in a subprocess)."""
    source = folder / "source"
    source.mkdir(parents=True, exist_ok=True)
    shutil.copy(program, source / program.name)
    out = folder / "migrated"
    completed = subprocess.run(
        [sys.executable, "-m", "migrate", "-q", "--output-dir", str(out), str(source)],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=300, env=_env(True))
    if completed.returncode not in (0, 1):
        raise RuntimeError(f"estimator-migrate failed on {program}:\n{completed.stderr[-3000:]}")
    return out / source.name / program.name


def run_side(side: str, program: Path, args, tmp_path: Path, timeout: float = 600,
             emulated_cores: int | None = None) -> Side:
    """`emulated_cores`: a current side runs under `python -m estimator_bridge.tpu_emulation
    --cores N` (TPUConfig(num_shards=N) on N logical CPUs)."""
    folder = tmp_path / side
    folder.mkdir(parents=True, exist_ok=True)
    args = [str(a).replace("{model_dir}", str(folder / "model")) for a in args]
    current = [sys.executable]
    if emulated_cores is not None and side != "oracle":
        current += ["-m", "estimator_bridge.tpu_emulation", "--cores", str(emulated_cores)]
    if side == "oracle":
        command = [str(oracle_python("tf115")), str(program), *args]
    elif side == "runner":
        command = [*current, "-m", "estimator_bridge.run", str(program), *args]
    elif side == "migrated":
        command = [*current, str(migrate_copy(program, folder)), *args]
    else:
        raise ValueError(f"unknown side {side!r}; one of {SIDES}")
    completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                               env=_env(side != "oracle"), cwd=folder)
    return Side(side, completed.returncode, _last_json(completed.stdout), completed.stderr)
