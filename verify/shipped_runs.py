"""The shipped legacy examples (legacy_examples/catalog.py) as programs verify runs.

An example is a Program with the catalog's flags; its oracle result is the committed golden (two
identical oracle runs, verify/goldens.py), its start state the files beside it. This module only
adapts: running and comparing go through the same sides, harvester and comparison as `verify`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from legacy_examples.catalog import LegacyExample
from verify.compare import logs_running_means, per_batch_from_running_means
from verify.environments import harvest, program_env, run_program
from verify.program import Program
from verify.sides import REPO_ROOT, check_available, launch, script_command, seed_model_dir


def harvest_spec(example: LegacyExample) -> dict:
    return {"tags": list(example.tags), "variables": list(example.variables),
            "values_per_variable": 16, "serving": example.serving}


def example_program(example: LegacyExample, side: str = "swapped") -> Program:
    return Program(script=example.script_path,
                   args=(f"{example.model_dir_flag}={{model_dir}}", *example.flags_on(side)),
                   cwd=REPO_ROOT)


def example_argv(python: Path | str, example: LegacyExample, model_dir: Path) -> list[str]:
    return [str(python), *script_command(example.script_path), *example_program(example).argv(model_dir)]


def seed_from_golden(example: LegacyExample, model_dir: Path) -> None:
    """A fresh model_dir holding the golden's start state (and a `checkpoint` file for ckpt-0)."""
    has_ckpt0 = any(name.startswith("model.ckpt-0") for name in example.start_state)
    seed_model_dir(model_dir, [example.folder / name for name in example.start_state],
                   "model.ckpt-0" if has_ckpt0 else None)


def run_current(example: LegacyExample, model_dir: Path, side: str = "swapped", *,
                timeout: float = 900) -> dict:
    """Run the example on current TF by `side` into model_dir; return its harvest (+ seconds).

    oneDNN is switched off (TF_ENABLE_ONEDNN_OPTS=0): its conv/batch-norm kernels differ from
    TF 1.15's by up to ~5e-6 relative, above the 1e-6 we hold runs to.
    """
    check_available(side)
    seed_from_golden(example, model_dir)
    program = example_program(example, side)
    started = time.perf_counter()
    how = launch(side, program, model_dir.parent)
    env = program_env(onednn=False, python_path=how.python_path)
    run_program([*how.command, *program.argv(model_dir)], env=env, cwd=REPO_ROOT, timeout=timeout)
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
        if logs_running_means(table["rows"], epoch_losses(result), example.keras_steps_per_epoch):
            table["rows"] = per_batch_from_running_means(table["rows"], example.keras_steps_per_epoch)
    return result


def epoch_losses(result: dict) -> list[float]:
    """The epochs' losses of a Keras example's harvest (its history table's `loss` column)."""
    history = result.get("history") or {}
    columns = history.get("columns", [])
    if "loss" not in columns:
        return []
    column = columns.index("loss")
    return [row[column] for row in history.get("rows", [])]
