"""Where each TensorFlow lives and how a legacy program is started in it.

Three interpreters run the same programs: the two oracles built by `make oracles` (TF 1.15 for
`tf.contrib`, TF 2.15 + tf-estimator-nightly for `tf.compat.v1.estimator`) and the current one
(this process's interpreter, current TensorFlow). Programs always run as subprocesses: absl
flags, TF1 graph state and the oracles' old Pythons cannot share a process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
ORACLE_ROOT = REPO_ROOT / ".oracle"
ORACLE_BUILD_TARGET = {"tf115": "oracle-a", "tf215": "oracle-b"}
ORACLE_VERSIONS = {"tf115": "1.15.0", "tf215": "2.15.1"}
HARVEST = Path(__file__).resolve().parent / "harvest.py"


class ProgramFailed(RuntimeError):
    """A legacy program (or the harvester) exited with an error."""


def oracle_python(oracle: str) -> Path:
    """The oracle's interpreter; raises FileNotFoundError naming the make target that builds it."""
    python = ORACLE_ROOT / oracle / "bin" / "python"
    if not (ORACLE_ROOT / oracle / ".done").exists() or not python.exists():
        raise FileNotFoundError(
            f"oracle {oracle!r} is not built at {python.parent.parent}; run "
            f"`make {ORACLE_BUILD_TARGET[oracle]}` (or `make oracles`) first.")
    return python


# Variables that importing current TensorFlow sets in os.environ. They must not reach another
# TensorFlow: TF2_BEHAVIOR=1 (set by `import tensorflow` 2.x) switches TF 1.15 to v2 behaviour,
# and the iris example then trained from different initial values (loss 1.92 vs 1.09 at step 1).
LEAKED_BY_TF_IMPORT = ("TF2_BEHAVIOR", "KMP_DUPLICATE_LIB_OK", "KMP_INIT_AT_FORK", "TPU_ML_PLATFORM",
                       "TPU_ML_PLATFORM_VERSION", "ENABLE_RUNTIME_UPTIME_TELEMETRY",
                       "HDF5_PLUGIN_PATH")
NOT_INHERITED = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "TF_ENABLE_ONEDNN_OPTS") + LEAKED_BY_TF_IMPORT


def program_env(*, onednn: bool = True) -> dict[str, str]:
    """Environment for a program subprocess: quiet TF, stable hashing, nothing of ours leaking.

    onednn=False sets TF_ENABLE_ONEDNN_OPTS=0: current TF's oneDNN conv/batch-norm kernels
    differ from TF 1.15's by up to ~5e-6 relative (DESIGN.md section 5).
    """
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env["PYTHONHASHSEED"] = "0"
    env["CUDA_VISIBLE_DEVICES"] = ""
    if not onednn:
        env["TF_ENABLE_ONEDNN_OPTS"] = "0"
    return env


def run_program(argv: list[str], *, env: dict[str, str], cwd: Path | str | None = None,
                timeout: float = 900) -> subprocess.CompletedProcess:
    """Run one program; ProgramFailed carries the command and the tail of its stderr."""
    completed = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd,
                               timeout=timeout)
    if completed.returncode != 0:
        raise ProgramFailed(
            f"`{' '.join(map(str, argv))}` exited with {completed.returncode}; stderr tail:\n"
            f"{completed.stderr[-5000:]}")
    return completed


def harvest(python: Path | str, model_dir: Path, spec: dict, *, env: dict[str, str]) -> dict:
    """Run harvest.py with `python` (the same TensorFlow that wrote model_dir) and parse it."""
    completed = run_program([str(python), str(HARVEST), str(model_dir), json.dumps(spec)], env=env)
    return json.loads(completed.stdout.strip().splitlines()[-1])


def current_python() -> str:
    return sys.executable
