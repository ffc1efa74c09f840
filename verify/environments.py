"""How a legacy program is started in one TensorFlow, and how what it wrote is read back.

Three interpreters run the same programs: the two oracles (TF 1.15 for `tf.contrib`, TF 2.15 +
tf-estimator-nightly for `tf.compat.v1.estimator`, found or built by verify/oracles.py) and the
current one (this process's interpreter, current TensorFlow). Programs always run as
subprocesses: absl flags, TF1 graph state and the oracles' old Pythons cannot share a process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from verify.oracle_recipes import RECIPES
from verify.oracles import CHECKOUT_ORACLES, is_built, interpreter

ORACLE_BUILD_TARGET = {"tf115": "oracle-a", "tf215": "oracle-b"}
ORACLE_VERSIONS = {name: recipe.tensorflow for name, recipe in RECIPES.items()}
HARVEST = Path(__file__).resolve().parent / "harvest.py"
WATCH_SECONDS = 0.5


class ProgramFailed(RuntimeError):
    """A legacy program (or the harvester) exited with an error."""


def oracle_python(oracle: str) -> Path:
    """The checkout's oracle interpreter (tests, goldens); FileNotFoundError names the make target."""
    root = CHECKOUT_ORACLES / oracle
    if not is_built(RECIPES[oracle], root):
        raise FileNotFoundError(
            f"oracle {oracle!r} is not built at {root}; run "
            f"`make {ORACLE_BUILD_TARGET[oracle]}` (or `make oracles`) first.")
    return interpreter(root)


# Variables that importing current TensorFlow sets in os.environ. They must not reach another
# TensorFlow: TF2_BEHAVIOR=1 (set by `import tensorflow` 2.x) switches TF 1.15 to v2 behaviour,
# and the iris example then trained from different initial values (loss 1.92 vs 1.09 at step 1).
LEAKED_BY_TF_IMPORT = ("TF2_BEHAVIOR", "KMP_DUPLICATE_LIB_OK", "KMP_INIT_AT_FORK", "TPU_ML_PLATFORM",
                       "TPU_ML_PLATFORM_VERSION", "ENABLE_RUNTIME_UPTIME_TELEMETRY",
                       "HDF5_PLUGIN_PATH")
NOT_INHERITED = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "TF_ENABLE_ONEDNN_OPTS", "TF_NUM_INTRAOP_THREADS",
                 "TF_NUM_INTEROP_THREADS") + LEAKED_BY_TF_IMPORT


def program_env(*, onednn: bool = True, python_path: list[Path] | tuple[Path, ...] = (),
                intra_op_threads: int | None = None) -> dict[str, str]:
    """Environment for a program subprocess: quiet TF, stable hashing, nothing of ours leaking.

    onednn=False sets TF_ENABLE_ONEDNN_OPTS=0: current TF's oneDNN conv/batch-norm kernels
    differ from TF 1.15's by up to ~5e-6 relative (docs/verify.md). intra_op_threads sets
    TF_NUM_INTRAOP_THREADS (the oracle's spread runs vary it: verify/oracle_plan.py). No bytecode
    is written, so a run never leaves `__pycache__` folders in the user's sources.
    """
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["CUDA_VISIBLE_DEVICES"] = ""
    if not onednn:
        env["TF_ENABLE_ONEDNN_OPTS"] = "0"
    if intra_op_threads is not None:
        env["TF_NUM_INTRAOP_THREADS"] = str(intra_op_threads)
    if python_path:
        env["PYTHONPATH"] = os.pathsep.join(str(folder) for folder in python_path)
    return env


def run_program(argv: list, *, env: dict[str, str], cwd: Path | str | None = None,
                timeout: float = 900, log: Path | None = None,
                watch: Callable[[], None] | None = None) -> subprocess.CompletedProcess:
    """Run one program; ProgramFailed carries the command and the tail of its stderr.

    log: file that receives the program's stdout and stderr (kept for the user to read);
    watch: called about every WATCH_SECONDS while the program runs (progress, snapshots); when
      it returns True the program has given what was wanted: it is stopped, and that is success.
    """
    argv = [str(a) for a in argv]
    if log is None and watch is None:
        completed = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
        if completed.returncode != 0:
            raise ProgramFailed(
                f"`{' '.join(argv)}` exited with {completed.returncode}; stderr tail:\n"
                f"{completed.stderr[-5000:]}")
        return completed
    log = log or Path(os.devnull)
    with open(log, "w") as output:
        process = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT, env=env, cwd=cwd)
        deadline = time.monotonic() + timeout
        while process.poll() is None:
            if time.monotonic() > deadline:
                process.kill()
                process.wait()
                raise subprocess.TimeoutExpired(argv, timeout)
            if watch is not None and watch():
                process.kill()
                process.wait()
                return subprocess.CompletedProcess(argv, 0, _tail(log), "")
            time.sleep(WATCH_SECONDS)
    if watch is not None:
        watch()
    tail = _tail(log)
    if process.returncode != 0:
        raise ProgramFailed(f"`{' '.join(argv)}` exited with {process.returncode} (log: {log}); output tail:\n"
                            f"{tail}")
    return subprocess.CompletedProcess(argv, process.returncode, tail, "")


def _tail(log: Path, size: int = 5000) -> str:
    try:
        with open(log, "rb") as data:
            data.seek(0, os.SEEK_END)
            data.seek(max(0, data.tell() - size))
            return data.read().decode(errors="replace")
    except OSError:
        return ""


def harvest(python: Path | str, model_dir: Path, spec: dict, *, env: dict[str, str]) -> dict:
    """Run harvest.py with `python` (the same TensorFlow that wrote model_dir) and parse it."""
    env = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    completed = run_program([str(python), str(HARVEST), str(model_dir), json.dumps(spec)], env=env)
    return json.loads(completed.stdout.strip().splitlines()[-1])


def current_python() -> str:
    return sys.executable
