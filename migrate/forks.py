"""Vendored copies of TensorFlow 1.x's `tpu_estimator.py` (XLNet, Transformer-XL and their forks).

Those repositories copied TF 1.13's tpu_estimator.py into their own tree to add `train_cache_fn`
/ `eval_cache_fn` (memory carried from one step to the next), and their scripts
`import tpu_estimator` instead of TensorFlow's. The copy is built on TF 1.x internals
(tensorflow.contrib.tpu.python.*, tensorflow.python.estimator.*) and cannot be migrated name by
name; what to do is to drop it and use estimator_bridge.TPUEstimator, which has no cache_fn
extension. This module finds both sides with `ast` and says so once per file.
"""

from __future__ import annotations

import ast
from dataclasses import replace

FORK_CLASSES = {"TPUEstimator", "TPUEstimatorSpec"}
CACHE_KEYWORDS = ("train_cache_fn", "eval_cache_fn")
_FORK_HINT = ("delete this copy and use estimator_bridge.TPUEstimator / TPUEstimatorSpec (TF 1.15's "
              "constructor and spec); the fork's own extension ")
_CACHE = ("train_cache_fn/eval_cache_fn (memory fed from one step to the next, XLNet / Transformer-XL) has no "
          "bridge equivalent: keep the program on TF 1.15, or carry the memory in non-trainable variables "
          "updated in model_fn")


def is_fork(tree: ast.Module) -> ast.ClassDef | None:
    """The `class TPUEstimator` of a module that defines TPUEstimator and TPUEstimatorSpec itself."""
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    return classes["TPUEstimator"] if FORK_CLASSES <= classes.keys() else None


def fork_imports(tree: ast.Module) -> list[tuple[ast.stmt, str]]:
    """(import statement, module) for imports of a local module named tpu_estimator."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node, a.name) for a in node.names
                      if a.name.split(".")[-1] == "tpu_estimator" and a.name.split(".")[0] not in
                      ("tensorflow", "tensorflow_estimator")]
        elif isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").split(".")[0] not in
                                                    ("tensorflow", "tensorflow_estimator")):
            module = node.module or ""
            if module.split(".")[-1] == "tpu_estimator" or any(a.name == "tpu_estimator" for a in node.names):
                found.append((node, "." * node.level + module))
    return found


def cache_uses(tree: ast.Module) -> int:
    """How many calls pass train_cache_fn / eval_cache_fn."""
    return sum(1 for node in ast.walk(tree) if isinstance(node, ast.Call)
               and any(k.arg in CACHE_KEYWORDS for k in node.keywords))


def fork_findings(tree: ast.Module) -> list[tuple[int, int, str, str]]:
    """(line, column, message, hint) in `tree`'s lines: the fork's class, or each import of one."""
    out = []
    fork = is_fork(tree)
    if fork is not None:
        out.append((fork.lineno, fork.col_offset,
                    "this file is a vendored fork of TensorFlow 1.x's tpu_estimator.py; it is built on TF 1.x "
                    "internals (tf.contrib.tpu, tensorflow.python.estimator) and cannot be migrated name by name",
                    _FORK_HINT + _CACHE))
    imports = fork_imports(tree)
    uses = cache_uses(tree) if imports else 0
    for statement, module in imports:
        extension = (f"; {uses} call{'s' if uses > 1 else ''} here pass{'' if uses > 1 else 'es'} "
                     f"train_cache_fn/eval_cache_fn, which " + _CACHE.split(") ", 1)[1]) if uses else ""
        out.append((statement.lineno, statement.col_offset,
                    f"`{module}` is a vendored fork of TensorFlow 1.x's tpu_estimator.py, not TensorFlow's: "
                    f"migrate does not rewrite it",
                    "import estimator_bridge and use estimator_bridge.TPUEstimator / TPUEstimatorSpec "
                    f"instead of `{module}`'s{extension}"))
    return out


# Hints that name no replacement: inside a fork every such name is one of the fork's TF 1.x internals,
# whose replacement is the bridge's TPUEstimator, not a name of its own.
_GENERIC = ("see the TF 2 migration guide", "rewrite or delete this import")


def within_fork(findings: list) -> list:
    """`findings` with each generic hint of a vendored fork's own file replaced by what to do with the fork
    (XLNet's and Transformer-XL's tpu_estimator.py: 60+ MIG301/MIG306 on tf.contrib.tpu internals such as
    tpu_context.TPUContext, util.check_positive_integer, session_support, each saying only 'see the TF 2
    migration guide')."""
    if not any(f.code == "MIG307" and f.message.startswith("this file is a vendored fork") for f in findings):
        return findings
    hint = ("one of the TF 1.x internals this vendored tpu_estimator.py fork is built on (MIG307 at its class "
            "TPUEstimator): " + _FORK_HINT.split(";")[0])
    out = []
    for finding in findings:
        generic = next((g for g in _GENERIC if finding.hint.startswith(g)), None)
        if generic is None or finding.code == "MIG307":
            out.append(finding)
            continue
        rest = finding.hint.split(";", 1)[1] if generic == "rewrite or delete this import" and ";" in finding.hint else ""
        out.append(replace(finding, hint=hint + (";" + rest if rest else "")))
    return out
