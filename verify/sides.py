"""The ways a legacy program runs on current TensorFlow ("sides"), and the model_dir it starts from.

Sides:
  swapped   the unchanged script with only its TensorFlow import lines swapped to the bridge's
            TF1 namespace (``python -m verify.swapped_imports``): the narrowest test of the
            bridge itself, used for the shipped examples;
  runner    the unchanged script through the compat runner (``python -m estimator_bridge.run``);
  migrated  the script after ``estimator-migrate --output-dir`` rewrote a copy of its folder (or
            the user's own migrated copy), run with plain ``python``;
  migrated_tpu
            the migrated script on its TPU branch: run under ``python -m
            estimator_bridge.tpu_emulation --cores 8`` (TPUClusterResolver / TPUStrategy become
            MirroredStrategy over 8 logical CPUs without changing the program's code path), with
            the flags that select the TPU branch (the catalog's ``tpu_flags``).

Every run starts from the oracle's start state (its ``model.ckpt-0``, or Keras initial weights)
copied into a fresh model_dir: TF1 graph-seeded initial values cannot be reproduced on another
TensorFlow, and a model_dir holding only ckpt-0 resumes at step 0 with the input pipeline at
element 0, exactly as the oracle's own run continued after writing it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from verify.environments import ProgramFailed
from verify.program import Program

REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Side:
    name: str
    title: str
    requires_module: str  # a module that must exist in this environment for the side to run


SIDES = {
    "swapped": Side("swapped", "imports swapped to estimator_bridge.compat", "estimator_bridge.compat"),
    "runner": Side("runner", "python -m estimator_bridge.run", "estimator_bridge.run"),
    "migrated": Side("migrated", "after estimator-migrate", "migrate.api"),
    "migrated_tpu": Side("migrated_tpu", "after estimator-migrate, TPU branch on 8 emulated cores",
                         "estimator_bridge.tpu_emulation"),
}
EMULATED_TPU_CORES = 8
# Notebooks run through this script (papermill-style parameters), in every TensorFlow.
NOTEBOOK_SCRIPT = REPO_ROOT / "verify" / "notebook_script.py"


def script_command(script: Path, recorded: bool | None = None) -> list[str]:
    """What runs `script` after the interpreter: itself, or notebook_script.py and the program
    (a notebook, or a Keras script verify records: Program.recorded)."""
    if recorded is None:
        recorded = script.suffix == ".ipynb"
    return [str(NOTEBOOK_SCRIPT), str(script)] if recorded else [str(script)]
USER_SIDES = ("runner", "migrated")  # what `verify --side` offers: how users run their code


def with_notebook_options(command: list[str], model_dir: Path, overrides: Path | None = None,
                          keras_start: Path | None = None) -> list[str]:
    """`command` with notebook_script.py's per-run options (its folder, overrides, Keras start)
    after the script's path; a command that runs no notebook is returned as it is."""
    if str(NOTEBOOK_SCRIPT) not in command:
        return command
    at = command.index(str(NOTEBOOK_SCRIPT)) + 1
    options = ["--model-dir", str(model_dir)]
    if overrides is not None and "--overrides" not in command:  # not when the side brings its own
        options += ["--overrides", str(overrides)]
    if keras_start is not None:
        options += ["--keras-start", str(keras_start)]
    return [*command[:at], *options, *command[at:]]


class SideUnavailable(RuntimeError):
    """The side's machinery is not part of this installation."""


def check_available(side: str) -> None:
    """Raise SideUnavailable naming the missing module, so a report says why a side did not run."""
    spec = SIDES[side]
    if not module_exists(spec.requires_module):
        raise SideUnavailable(f"side {side} [{spec.title}] cannot run: module {spec.requires_module} "
                              "is not installed.")


def module_exists(dotted: str) -> bool:
    """Whether `dotted` can be imported, without importing it (estimator_bridge imports TensorFlow)."""
    top, _, rest = dotted.partition(".")
    spec = importlib.util.find_spec(top)
    if spec is None or not rest:
        return spec is not None
    relative = Path(*rest.split("."))
    return any((Path(location) / f"{relative}.py").is_file() or (Path(location) / relative / "__init__.py").is_file()
               for location in spec.submodule_search_locations or ())


def checkpoint_state(prefix: str) -> str:
    return f'model_checkpoint_path: "{prefix}"\nall_model_checkpoint_paths: "{prefix}"\n'


def seed_model_dir(model_dir: Path, files: list[Path], checkpoint: str | None = None) -> None:
    """A fresh model_dir holding `files` (the start state) and a `checkpoint` file naming `checkpoint`."""
    model_dir.mkdir(parents=True, exist_ok=True)
    for file in files:
        shutil.copyfile(file, model_dir / file.name)
    if checkpoint is not None:
        (model_dir / "checkpoint").write_text(checkpoint_state(checkpoint))


MIGRATE_EXIT_ERROR = 2  # estimator-migrate: 0 nothing to do, 1 changes/findings, 2 error


def migrate_tree(root: Path, out_dir: Path, *, log: Path | None = None) -> Path:
    """Rewrite a copy of `root` with `estimator-migrate --output-dir`; the copy's root.

    The whole folder is migrated so that sibling modules (BERT's modeling.py) are rewritten too.
    The codemod's report goes to `log` (its findings are part of what the user should read).
    """
    completed = subprocess.run(
        [sys.executable, "-m", "migrate", "--output-dir", str(out_dir), str(root)],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=900)
    if log is not None:
        log.write_text(completed.stdout + completed.stderr)
    if completed.returncode == MIGRATE_EXIT_ERROR:
        raise ProgramFailed(
            f"estimator-migrate --output-dir {out_dir} {root} exited with {completed.returncode}:\n"
            f"{completed.stdout[-2000:]}\n{completed.stderr[-3000:]}")
    return out_dir / root.name


def _ignored_in_copy(work_dir: Path):
    """copytree's `ignore`: VCS and cache folders, and verify's own work folder when the user put
    it inside the program's folder (copying it into itself would recurse until names are too long)."""
    patterns = shutil.ignore_patterns(".git", "__pycache__", ".ipynb_checkpoints")
    work = work_dir.resolve()

    def ignored(folder: str, names: list[str]) -> set[str]:
        skipped = set(patterns(folder, names))
        return skipped | {name for name in names if (Path(folder) / name).resolve() == work}

    return ignored


def overridden_tree(program: Program, work_dir: Path) -> Path:
    """The program's source root with the overrides applied to its notebook or script (the other
    files linked, not copied): what the migrated side migrates. An override is written against the
    user's program (`--replace 'tf.contrib.distribute.TPUStrategy(resolver)' ...`, a `.h5` path the
    codemod rewrites): applied to the migrated copy's text it could match nothing, or something else."""
    from verify import notebook_script

    root, script = program.root, program.script.resolve()
    staging = work_dir / "overridden" / root.name
    if not staging.exists():
        staging.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(root, staging, copy_function=os.symlink, ignore_dangling_symlinks=True,
                        ignore=_ignored_in_copy(work_dir))
    copy = staging / script.relative_to(root)
    copy.unlink(missing_ok=True)
    text = script.read_text(encoding="utf-8")
    overrides = program.notebook.as_json()
    if program.is_notebook:
        copy.write_text(json.dumps(notebook_script.overridden_notebook(json.loads(text), overrides), indent=1),
                        encoding="utf-8")
    else:
        copy.write_text(notebook_script.overridden_script(text, overrides), encoding="utf-8")
    return staging


@dataclass(frozen=True)
class Launch:
    """How one side starts the program: the command before its arguments, and its import path."""

    command: list[str]
    python_path: list[Path]


def launch(side: str, program: Program, work_dir: Path) -> Launch:
    """The command that runs `program` on `side`; the migrated side migrates into work_dir once."""
    check_available(side)
    script = program.script.resolve()
    paths = [Path(p).resolve() for p in program.python_path]
    # The bridge beside this verify is the one under test (last: the program's own modules win).
    if side == "swapped":
        if script.suffix == ".ipynb":
            raise SideUnavailable(f"side swapped runs Python scripts; {script.name} is a notebook (sides runner, "
                                  "migrated, migrated_tpu run notebooks)")
        return Launch([sys.executable, "-m", "verify.swapped_imports", str(script)], [*paths, REPO_ROOT])
    if side == "runner":
        # A notebook runs as notebook_script.py under the runner: its cells' `import tensorflow`
        # gets the runner's TF1 namespace like a script's.
        return Launch([sys.executable, "-m", "estimator_bridge.run", *script_command(script, program.recorded)], [*paths, REPO_ROOT])
    if side in ("migrated", "migrated_tpu"):
        interpreter = [sys.executable] if side == "migrated" else [
            sys.executable, "-m", "estimator_bridge.tpu_emulation", "--cores", str(EMULATED_TPU_CORES)]
        if program.migrated_script is not None:
            return Launch([*interpreter, *script_command(program.migrated_script.resolve(), program.recorded)],
                          [*paths, REPO_ROOT])
        root = program.root
        migrated_root = work_dir / "migrated" / root.name
        if not migrated_root.exists():
            migrated_root = migrate_tree(overridden_tree(program, work_dir) if program.notebook else root,
                                         work_dir / "migrated", log=work_dir / "migrate.log")
        moved = [migrated_root / p.relative_to(root) if p.is_relative_to(root) else p for p in paths]
        command = script_command(migrated_root / script.relative_to(root), program.recorded)
        if program.notebook:  # applied before migrating: only the stubs act at run time
            stubs = work_dir / "migrated_overrides.json"
            stubs.write_text(json.dumps({"stub_modules": list(program.notebook.stub_modules)}))
            command = [command[0], "--overrides", str(stubs), *command[1:]]
        return Launch([*interpreter, *command], [*moved, REPO_ROOT])
    raise SideUnavailable(f"unknown side {side!r}; sides: {sorted(SIDES)}")



# What a failed run's output says, most telling first: a Python exception line, a native abort.
_EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)|Fatal Python error)\b")
_NATIVE_ABORT = re.compile(r"^(terminate called|F\d{4} |Check failed|Segmentation fault|Aborted)")


def describe_failure(error: BaseException) -> str:
    """The line of a failed run that says what went wrong, for one table cell."""
    text = str(error)
    if isinstance(error, subprocess.TimeoutExpired):
        return f"timed out after {error.timeout} s"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    native = next((line for line in lines if _NATIVE_ABORT.match(line)), None)
    for line in reversed(lines):
        if _EXCEPTION_LINE.match(line):
            if line.startswith("Fatal Python error") and native:
                return f"{line} ({native})"[:300]
            return line[:300]
    if native:
        return native[:300]
    return (lines[-1] if lines else type(error).__name__)[:300]
