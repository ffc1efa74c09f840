"""A legacy program as verify runs it: the script, its arguments, and what it may import.

The arguments are the user's command line with placeholders that verify fills per run:
``{model_dir}`` (required: every run writes into its own fresh folder, never the user's) and
``{steps}`` (the `--steps` option). A placeholder in the arguments that verify does not know, or
`--steps` without ``{steps}``, is an error: nothing is accepted and silently ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

MODEL_DIR = "model_dir"
STEPS = "steps"
PLACEHOLDERS = (MODEL_DIR, STEPS)


class BadProgram(ValueError):
    """The program or its arguments cannot be verified as given; the message says how to fix it."""


@dataclass(frozen=True)
class NotebookOverrides:
    """What verify changes in a notebook as it runs it, the notebook file untouched
    (verify/notebook_script.py applies them, in every TensorFlow).

    Attributes:
      after: (NAME, CODE) pairs: CODE runs right after every module-level statement binding NAME
        (`--set NAME=EXPR` is (NAME, "NAME = EXPR"); `--after NAME=CODE` any code, e.g. a `def`
        replacing a function).
      skip_cells: a code cell containing one of these texts is not run (`--skip-cell`).
      replace: (OLD, NEW) text replacements in the code of the cells that run (`--replace OLD NEW`).
      stub_modules: modules replaced by a do-nothing stub (`--stub-module matplotlib`: display only).
    """

    after: tuple[tuple[str, str], ...] = ()
    skip_cells: tuple[str, ...] = ()
    replace: tuple[tuple[str, str], ...] = ()
    stub_modules: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.after or self.skip_cells or self.replace or self.stub_modules)

    def as_json(self) -> dict:
        return {"after": [list(pair) for pair in self.after], "skip_cells": list(self.skip_cells),
                "replace": [list(pair) for pair in self.replace], "stub_modules": list(self.stub_modules)}


@dataclass(frozen=True)
class Program:
    """What to run.

    Attributes:
      script: the program, unchanged (the oracle runs it as is, the runner too).
      args: its arguments, with ``{model_dir}`` where the model_dir goes.
      steps: the value of ``{steps}``, when the arguments use it.
      source_root: the folder that holds the program's own modules; `estimator-migrate` rewrites
        a copy of it for the migrated side (default: the script's folder).
      python_path: folders the program imports from (PYTHONPATH of every run; those inside
        source_root point into the migrated copy on the migrated side).
      migrated_script: an already migrated script to run on the migrated side instead of
        running the codemod (the user's own migration).
      cwd: the working folder of every run (relative paths in args resolve against it); a
        notebook runs in its own model_dir instead (notebook_script.py).
      notebook: overrides that make a notebook tiny without editing it (NotebookOverrides).
    """

    script: Path
    args: tuple[str, ...]
    steps: int | None = None
    source_root: Path | None = None
    python_path: tuple[Path, ...] = ()
    migrated_script: Path | None = None
    cwd: Path = field(default_factory=Path.cwd)
    notebook: NotebookOverrides = field(default_factory=lambda: NotebookOverrides())

    @property
    def is_notebook(self) -> bool:
        return self.script.suffix == ".ipynb"

    @property
    def is_keras_script(self) -> bool:
        """A script with no model_dir in its command line that uses Keras (e.g. `keras_to_tpu_model`
        behind `--use_tpu`): like a notebook,
        it runs in its run's folder with its Keras `fit`/`evaluate`/`predict` recorded."""
        return (not self.is_notebook and "{" + MODEL_DIR + "}" not in " ".join(self.args)
                and uses_keras(self.script))

    @property
    def recorded(self) -> bool:
        """Runs through verify/notebook_script.py (its own folder, overrides, Keras recorded)."""
        return self.is_notebook or self.is_keras_script

    @property
    def root(self) -> Path:
        return (self.source_root or self.script.parent).resolve()

    def argv(self, model_dir: Path) -> list[str]:
        values = {MODEL_DIR: str(model_dir), STEPS: "" if self.steps is None else str(self.steps)}
        return [_fill(arg, values) for arg in self.args]


def _fill(arg: str, values: dict[str, str]) -> str:
    return arg.replace("{" + MODEL_DIR + "}", values[MODEL_DIR]).replace("{" + STEPS + "}", values[STEPS])


_KERAS = re.compile(r"\bkeras\b")


def uses_keras(script: Path) -> bool:
    """Whether a script's text names Keras (`tf.keras`, `import keras`, `keras_to_tpu_model`)."""
    try:
        return bool(_KERAS.search(script.read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return False


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def check_program(program: Program) -> None:
    """Raise BadProgram for anything verify would otherwise run wrongly or not at all."""
    script = program.script
    if not script.is_file():
        raise BadProgram(f"program {script} does not exist (or is not a file)")
    if script.suffix not in (".py", ".ipynb"):
        raise BadProgram(f"program {script} is neither a .py file nor a notebook (.ipynb)")
    if program.notebook and not program.recorded:
        raise BadProgram("--set, --after, --skip-cell, --replace and --stub-module change a notebook (or a Keras "
                         f"script with no model_dir) as it runs; {script.name} is a script: give it flags after --")
    if program.notebook.skip_cells and not program.is_notebook:
        raise BadProgram(f"--skip-cell skips a notebook's cells; {script.name} is a script (one cell): use --replace "
                         "or --after")
    joined = " ".join(program.args)
    used = {match.group(1) for match in _PLACEHOLDER.finditer(joined)}
    unknown = used - set(PLACEHOLDERS)
    if unknown:
        raise BadProgram(f"unknown placeholder(s) {sorted('{' + u + '}' for u in unknown)} in the program's "
                         f"arguments; verify fills only {{model_dir}} and {{steps}}")
    if program.recorded:
        _check_notebook(program)
    elif MODEL_DIR not in used:
        raise BadProgram(
            "the program's arguments must name its model_dir as {model_dir} (e.g. --model_dir={model_dir} or "
            "--output_dir={model_dir}): every run writes into its own fresh folder, never into yours (a Keras "
            "script without a model_dir runs in a folder of its own, its fit/evaluate/predict recorded)")
    if program.steps is not None and STEPS not in used:
        raise BadProgram("--steps was given but the program's arguments have no {steps} placeholder to receive "
                         "it (e.g. --train_steps={steps})")
    if program.steps is None and STEPS in used:
        raise BadProgram("the program's arguments use {steps}; give its value with --steps N")
    if program.source_root is not None and not script.resolve().is_relative_to(program.root):
        raise BadProgram(f"the program {script} is not inside its --source-root {program.root}")
    if program.migrated_script is not None and not program.migrated_script.is_file():
        raise BadProgram(f"--migrated {program.migrated_script} does not exist (or is not a file)")
    for folder in program.python_path:
        if not folder.is_dir():
            raise BadProgram(f"--path {folder} is not a folder")



def _check_notebook(program: Program) -> None:
    """A notebook's (or Keras script's) overrides must each change something; said before any run
    (notebook_script.py says the same inside each run)."""
    import json

    from verify import notebook_script

    try:
        if program.is_notebook:
            notebook = json.loads(program.script.read_text(encoding="utf-8"))
            notebook_script.program_of(notebook, [arg for arg in program.args], program.notebook.as_json())
        else:
            notebook_script.script_program(program.script.read_text(encoding="utf-8"), program.notebook.as_json())
    except SystemExit as error:
        raise BadProgram(f"{program.script.name}: {error.code}") from None
    except (ValueError, KeyError) as error:
        raise BadProgram(f"{program.script} is not a readable notebook: {error}") from None
    except SyntaxError as error:
        raise BadProgram(f"{program.script.name}: its code (with the overrides) does not parse: {error}") from None
