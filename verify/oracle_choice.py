"""Which oracle a program was written for, read from what it imports (``--oracle`` overrides).

  * anything under ``tensorflow.contrib`` (``tf.contrib.tpu``, ``tf.contrib.layers``...),
    ``keras_to_tpu_model``, or a plain ``import tensorflow as tf`` program: TF 1.15 (`tf115`),
    the last TensorFlow with `tf.contrib`;
  * ``tensorflow.compat.v1`` / ``tensorflow_estimator`` code without `tf.contrib`, a Colab
    notebook that selects TF 2 (``%tensorflow_version 2.x``), a program that turns TF 2.x
    behaviour on itself (``enable_v2_behavior()``), or one that reads tensors'
    values eagerly (``.numpy()``) and never turns eager execution on itself: TF 2.15 +
    tf-estimator-nightly (`tf215`), the last TensorFlow with `tf.compat.v1.estimator`.

The script and the modules it imports from its own folder (and ``--path`` folders) are read,
transitively: BERT's run_classifier.py reaches tf.contrib only through modeling.py.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

MAX_FILES = 400
# Colab's TensorFlow selector in a notebook (`%tensorflow_version 2.x`): written for TF 2.x, where
# its plain `import tensorflow` would otherwise read as TF 1.x code (training-data-analyst's
# keras_flowers_gputputpupod_tf2.1 notebook). notebook_script.py keeps magics as comments.
COLAB_TF2 = "%tensorflow_version 2"
_COLAB_TF2_LINE = re.compile(r"#\s*IPython:\s*%tensorflow_version\s+2")

# `x.numpy()` needs eager execution, the default of TF 2.x only: TF 1.x code that reads values eagerly
# calls tf.enable_eager_execution() first (any spelling). training-data-analyst's TF 2.0 notebook
# 05K_MNIST_TF20Keras_Tensorboard_solution (plain `import tensorflow as tf`, `v_images.numpy()`)
# stops in TF 1.15 otherwise ("numpy() is only available when eager execution is enabled").
EAGER_VALUES = "<eager .numpy()>"
_EAGER_ON = "enable_eager_execution"
# `tf.enable_v2_behavior()` (tf.compat.v1's or tf.compat.v2's) asks for TF 2.x's API and behaviour: the
# program was written for TF 2.x, though TF 1.15 has the switch too. tensorflow/tpu's
# mnist_tf2_with_summary.py (2019-10, "for TF 2.0 models": `import tensorflow.compat.v2 as tf`, custom
# layers writing tf.summary inside a TPUStrategy) read as TF 1.x code by its plain import before.
V2_BEHAVIOR = "<enable_v2_behavior()>"
_V2_ON = "enable_v2_behavior"

# (dotted prefix of a used name, oracle, why). First match in this order wins across all files:
# a single tf.contrib use anywhere pins TF 1.15.
RULES: tuple[tuple[str, str, str], ...] = (
    ("tensorflow.contrib", "tf115", "uses tf.contrib (removed in TF 2.0)"),
    ("tensorflow.compat.v1.contrib", "tf115", "uses tf.contrib (removed in TF 2.0)"),
    ("keras_to_tpu_model", "tf115", "uses keras_to_tpu_model (tf.contrib.tpu, TF 1.x)"),
    (COLAB_TF2, "tf215", "selects TensorFlow 2 in Colab (%tensorflow_version 2.x)"),
    (V2_BEHAVIOR, "tf215", "turns TF 2.x behaviour on (enable_v2_behavior(): TF 2.x code)"),
    (EAGER_VALUES, "tf215", "reads a tensor's value with .numpy() without enable_eager_execution() "
                            "(eager execution: TF 2.x code)"),
    ("tensorflow.compat.v1", "tf215", "uses tensorflow.compat.v1 (TF 2.x-era TF1 code)"),
    ("tensorflow_estimator", "tf215", "imports tensorflow_estimator (TF 2.x-era Estimator code)"),
    ("tensorflow", "tf115", "imports tensorflow without compat.v1 (TF 1.x code)"),
)


@dataclass(frozen=True)
class Choice:
    oracle: str
    reason: str  # "run_classifier.py:25 uses tf.contrib ..."


class NoTensorFlow(ValueError):
    """The program never imports TensorFlow: there is nothing to verify against an oracle."""


def _used_names(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, dotted name) for every import and every attribute chain on an imported TF alias."""
    aliases: dict[str, str] = {}
    used: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                used.append((node.lineno, alias.name))
                aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                used.append((node.lineno, f"{node.module}.{alias.name}"))
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain = []
            current: ast.AST = node
            while isinstance(current, ast.Attribute):
                chain.append(current.attr)
                current = current.value
            if isinstance(current, ast.Name) and current.id in aliases:
                used.append((node.lineno, ".".join([aliases[current.id], *reversed(chain)])))
        elif isinstance(node, ast.Name) and node.id == "keras_to_tpu_model":
            used.append((node.lineno, "keras_to_tpu_model"))
    return used


def _eager_reads(tree: ast.AST) -> tuple[list[tuple[int, str]], bool]:
    """(line, EAGER_VALUES) for each `x.numpy()` call and (line, V2_BEHAVIOR) for each
    `enable_v2_behavior()` call, and whether the file turns eager execution on."""
    reads, turns_on = [], False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if called == "numpy" and isinstance(node.func, ast.Attribute) and not node.args and not node.keywords:
            reads.append((node.lineno, EAGER_VALUES))
        elif called == _V2_ON:
            reads.append((node.lineno, V2_BEHAVIOR))
        elif called == _EAGER_ON:
            turns_on = True
    return reads, turns_on


def _local_modules(tree: ast.AST, folders: list[Path]) -> list[Path]:
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            relative = Path(*name.split("."))
            for folder in folders:
                for candidate in (folder / f"{relative}.py", folder / relative / "__init__.py"):
                    if candidate.is_file():
                        found.append(candidate.resolve())
    return found


def program_source(path: Path) -> str:
    """A file's Python: a notebook's code cells as verify runs them (notebook_script.py)."""
    if path.suffix == ".ipynb":
        import json

        from verify.notebook_script import program_of

        return program_of(json.loads(path.read_text(encoding="utf-8")), [])
    return path.read_text(errors="replace")


def program_files(script: Path, python_path: tuple[Path, ...] = ()) -> list[Path]:
    """The script and the local modules it imports, transitively (at most MAX_FILES)."""
    folders = [script.resolve().parent, *(Path(p).resolve() for p in python_path)]
    seen: list[Path] = []
    queue = [script.resolve()]
    while queue and len(seen) < MAX_FILES:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.append(path)
        try:
            tree = ast.parse(program_source(path), str(path))
        except SyntaxError:
            continue
        queue += [module for module in _local_modules(tree, folders) if module not in seen]
    return seen


def choose_oracle(script: Path, python_path: tuple[Path, ...] = ()) -> Choice:
    """The oracle for `script` and why; NoTensorFlow when it imports no TensorFlow at all."""
    best: tuple[int, Choice] | None = None
    used: list[tuple[Path, int, str]] = []
    eager_on = False
    for path in program_files(script, python_path):
        try:
            tree = ast.parse(program_source(path), str(path))
        except SyntaxError as error:
            raise ValueError(f"{path}:{error.lineno}: cannot parse ({error.msg}); verify needs Python 3 source "
                             "(run the program's own Python 2 conversion first)") from error
        magics = [(number, COLAB_TF2) for number, text in enumerate(program_source(path).split("\n"), 1)
                  if path.suffix == ".ipynb" and _COLAB_TF2_LINE.search(text)]
        reads, turns_on = _eager_reads(tree)
        eager_on = eager_on or turns_on
        used += [(path, line, name) for line, name in [*_used_names(tree), *magics, *reads]]
    imports_tensorflow = False
    for path, line, name in used:
        if name == EAGER_VALUES and eager_on:
            continue
        for rank, (prefix, oracle, why) in enumerate(RULES):
            if name == prefix or name.startswith(prefix + "."):
                imports_tensorflow = imports_tensorflow or prefix != EAGER_VALUES
                if best is None or rank < best[0]:
                    best = (rank, Choice(oracle, f"{path.name}:{line} {why}"))
                break
    if best is None or not imports_tensorflow:  # `.numpy()` alone is NumPy-like code, not TensorFlow
        raise NoTensorFlow(f"{script} does not import TensorFlow (nor do its local modules); "
                           "verify compares TensorFlow programs with their original TensorFlow")
    return best[1]
