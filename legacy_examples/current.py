"""Run a legacy example on current TensorFlow by one of the regression paths, and harvest it.

Paths (issue 4):
  a  the unchanged script with only its TensorFlow imports swapped to the bridge's TF1
     namespace (``python -m legacy_examples.swapped``);
  b  the unchanged script through the compat runner (``python -m estimator_bridge.run``);
  c  the script after ``estimator-migrate --output-dir`` rewrote its folder, run with plain
     ``python`` (the migrated code imports estimator_bridge, installed with this project).

Every run starts from the golden's start state (the oracle's ``model.ckpt-0`` or Keras initial
weights) copied into a fresh model_dir: TF1 graph-seeded initial values cannot be reproduced on
another TensorFlow, and a model_dir holding only ckpt-0 resumes at step 0 with the input
pipeline at element 0, exactly as the oracle's own run continued after writing it.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from legacy_examples.catalog import LegacyExample
from legacy_examples.environments import ProgramFailed
from legacy_examples.environments import harvest, program_env, run_program
from legacy_examples.golden import per_batch_from_running_means
from legacy_examples.record import example_argv, harvest_spec


@dataclass(frozen=True)
class RegressionPath:
    key: str
    title: str
    requires_module: str  # a module that must exist in this environment for the path to run


PATHS = {
    "a": RegressionPath("a", "imports swapped to estimator_bridge.compat", "estimator_bridge.compat"),
    "b": RegressionPath("b", "python -m estimator_bridge.run", "estimator_bridge.run"),
    "c": RegressionPath("c", "after estimator-migrate", "migrate.api"),
}


class PathUnavailable(RuntimeError):
    """The regression path's machinery is not part of this checkout yet."""


def check_available(path: str) -> None:
    """Raise PathUnavailable naming the missing module, so a report says why a path did not run."""
    regression_path = PATHS[path]
    try:
        found = importlib.util.find_spec(regression_path.requires_module) is not None
    except ModuleNotFoundError:
        found = False
    if not found:
        raise PathUnavailable(
            f"path ({path}) [{regression_path.title}] cannot run: module "
            f"{regression_path.requires_module} does not exist in this checkout yet.")


CHECKPOINT_STATE = 'model_checkpoint_path: "model.ckpt-0"\nall_model_checkpoint_paths: "model.ckpt-0"\n'


def prepare_model_dir(example: LegacyExample, model_dir: Path) -> None:
    """A fresh model_dir holding only the golden's start state (and a `checkpoint` file for ckpt-0)."""
    model_dir.mkdir(parents=True, exist_ok=True)
    for filename in example.start_state:
        shutil.copyfile(example.folder / filename, model_dir / filename)
    if any(name.startswith("model.ckpt-0") for name in example.start_state):
        (model_dir / "checkpoint").write_text(CHECKPOINT_STATE)


MIGRATE_EXIT_REWROTE = 1  # estimator-migrate: 0 nothing to do, 1 changes/findings, 2 error


def migrate_example(example: LegacyExample, out_dir: Path) -> Path:
    """Rewrite the example's folder with `estimator-migrate --output-dir`; the migrated script.

    The whole folder is migrated so that sibling modules (BERT's modeling.py) are rewritten too.
    """
    completed = subprocess.run(
        [sys.executable, "-m", "migrate", "-q", "--output-dir", str(out_dir), str(example.folder)],
        capture_output=True, text=True, cwd=_repo_root(), timeout=600)
    if completed.returncode != MIGRATE_EXIT_REWROTE:
        raise ProgramFailed(
            f"estimator-migrate {example.folder} exited with {completed.returncode} (expected "
            f"{MIGRATE_EXIT_REWROTE}: rewritten):\n{completed.stdout[-2000:]}\n{completed.stderr[-3000:]}")
    return out_dir / example.folder.name / example.script


def launcher(path: str, example: LegacyExample, work_dir: Path) -> list[str]:
    """The command that runs `example`'s script by `path` (its arguments follow)."""
    if path == "a":
        return [sys.executable, "-m", "legacy_examples.swapped", str(example.script_path)]
    if path == "b":
        return [sys.executable, "-m", "estimator_bridge.run", str(example.script_path)]
    if path == "c":
        return [sys.executable, str(migrate_example(example, work_dir / "migrated"))]
    raise PathUnavailable(f"no launcher for path ({path})")


def run_current(example: LegacyExample, model_dir: Path, path: str = "a", *,
                timeout: float = 900) -> dict:
    """Run the example on current TF by `path` into model_dir; return its harvest (+ seconds).

    oneDNN is switched off (TF_ENABLE_ONEDNN_OPTS=0): its conv/batch-norm kernels differ from
    TF 1.15's by up to ~5e-6 relative (DESIGN.md section 5), above the 1e-6 we hold runs to.
    """
    check_available(path)
    prepare_model_dir(example, model_dir)
    env = program_env(onednn=False)
    script_args = example_argv("python", example, model_dir)[2:]
    started = time.perf_counter()
    command = launcher(path, example, model_dir.parent)
    run_program([*command, *script_args], env=env, cwd=_repo_root(), timeout=timeout)
    seconds = time.perf_counter() - started
    result = harvest_current(example, model_dir, env=env)
    result["seconds"] = round(seconds, 1)
    return result


def harvest_current(example: LegacyExample, model_dir: Path, *, env: dict[str, str]) -> dict:
    """Harvest a current-TF run under the golden's tag names (see LegacyExample.current_tags).

    Both the golden's tag and its current-TF name are read; the golden's own name wins when a
    run wrote it, so a bridge that reproduces TF1's uniquified tag is compared as such.
    """
    renamed = example.current_tags or {}
    spec = harvest_spec(example)
    spec["tags"] = sorted(set(spec["tags"]) | set(renamed.values()))
    result = harvest(sys.executable, model_dir, spec, env=env)
    scalars = result.get("scalars", {})
    for golden_tag, current_tag in renamed.items():
        values = scalars.get(golden_tag) or scalars.get(current_tag, {})
        scalars.pop(current_tag, None)
        scalars[golden_tag] = values
    if example.keras_steps_per_epoch and "train_losses" in result:
        table = result["train_losses"]
        table["rows"] = per_batch_from_running_means(table["rows"], example.keras_steps_per_epoch)
    return result


def _repo_root() -> Path:
    return Path(__file__).resolve().parents[1]


def describe_failure(error: BaseException) -> str:
    """The last meaningful line of a failed run, for one table cell."""
    text = str(error)
    if isinstance(error, subprocess.TimeoutExpired):
        return f"timed out after {error.timeout} s"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        if "Error" in line or "error" in line or "Exception" in line:
            return line[:300]
    return (lines[-1] if lines else type(error).__name__)[:300]
