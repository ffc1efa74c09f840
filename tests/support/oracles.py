"""Run programs inside the oracle environments (TF 1.15 and TF 2.15 + tf-estimator-nightly).

The oracles are real virtual environments built by `make oracles` into `.oracle/`. Tests that
use them are marked `oracle`; when an environment is missing they fail with the command that
builds it, never skip: an oracle test that silently does not run proves nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
ORACLE_ROOT = REPO_ROOT / ".oracle"

# name -> (folder, what it runs)
ORACLES = {
    "tf115": ("tf115", "CPython 3.7, tensorflow-cpu 1.15.0: tf.contrib.tpu"),
    "tf215": ("tf215", "CPython 3.11, tensorflow-cpu 2.15.1 + tf-estimator-nightly: tf.compat.v1.estimator"),
}


class OracleMissing(RuntimeError):
    """An oracle environment has not been built."""


def oracle_python(name: str) -> Path:
    """Path of the oracle's interpreter; raises OracleMissing with the fix when absent."""
    folder, what = ORACLES[name]
    python = ORACLE_ROOT / folder / "bin" / "python"
    if not (ORACLE_ROOT / folder / ".done").exists() or not python.exists():
        raise OracleMissing(
            f"oracle {name!r} ({what}) is not built at {python.parent.parent}; "
            f"run `make oracle-{'a' if name == 'tf115' else 'b'}` (or `make oracles`) first."
        )
    return python


def oracle_env() -> dict[str, str]:
    """Environment for oracle subprocesses: quiet TF logs, nothing from our venv leaking in.

    TF2_BEHAVIOR is dropped too: importing TF 2.x sets it in os.environ, and a TF 1.15 child that
    inherits it runs with v2 behaviour (measured: iris started from other initial values).
    """
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "TF2_BEHAVIOR")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env["PYTHONHASHSEED"] = "0"
    return env


def run_json(python: Path | str, script: Path | str, *args: str, timeout: float = 600,
             env: dict[str, str] | None = None, cwd: Path | str | None = None) -> dict:
    """Run `python script args...` and parse the last stdout line as JSON.

    Raises RuntimeError with the program's stderr tail when it fails, so that a broken oracle
    run is diagnosable from the test report alone.
    """
    completed = subprocess.run(
        [str(python), str(script), *args], capture_output=True, text=True, timeout=timeout,
        env=env if env is not None else oracle_env(), cwd=cwd,
    )
    if completed.returncode != 0:
        raise RuntimeError(
            f"{python} {script} {' '.join(args)} exited with {completed.returncode}:\n"
            f"{completed.stderr[-4000:]}"
        )
    lines = [line for line in completed.stdout.splitlines() if line.strip().startswith("{")]
    if not lines:
        raise RuntimeError(f"{script} printed no JSON line; stdout tail:\n{completed.stdout[-2000:]}")
    return json.loads(lines[-1])


def run_current_json(script: Path | str, *args: str, **kwargs) -> dict:
    """`run_json` on current TensorFlow (this interpreter), the repository importable, oneDNN off
    (the oracles' TF 1.15 / 2.15 CPU kernels do not use it)."""
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    env["TF_ENABLE_ONEDNN_OPTS"] = "0"
    return run_json(sys.executable, script, *args, env=env, **kwargs)


def current_python() -> str:
    """The interpreter running the tests (current TensorFlow)."""
    return sys.executable


def probe_program(python: Path | str, folder: Path, source: str, probe: str,
                  env: dict[str, str]) -> dict:
    """Writes `source` as folder/program.py and runs `python -c probe folder` (the probe puts
    the folder on sys.path, imports `program` and prints one JSON line); returns that JSON.
    How a migrated file is held to TF 1.15: the same probe on the original in the oracle and on
    the migrated text in this interpreter."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "program.py").write_text(source)
    return run_json(python, "-c", probe, str(folder), env=env, timeout=300)
