"""`model.save(path)` of a TF 1.x program, where Keras 3 may refuse the name, decided at run time.

TF 1.x's Keras wrote a whole model as HDF5 whatever the file was called (GoogleCloudPlatform/
cloudml-samples tpu/templates/tpu_keras/trainer.py, 2018: `model.save(os.path.join(args.model_dir,
'model.hd5'))`); Keras 3 saves only `.keras`, `.h5` and `.hdf5` names and raises ValueError for any
other, after training. A `x.save(p, ...)` call whose path is not a literal Keras 3 takes becomes
`estimator_bridge.compat.keras_weights.save_model(x, p, ...)`, which writes HDF5 under the program's
name for a Keras 3 model and calls anything else's `save` as written (a `tf.train.Saver`, a
`tf.train.Checkpoint`: what `x` is cannot be seen here). Files written against TF 2.x are left: there
Keras 2 wrote a SavedModel for such names, which Keras 3 does not write through `save`.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.keras_methods import _is_method, _path_literal
from migrate.codemods.registry import Codemod

HELPER = "estimator_bridge.compat.keras_weights.save_model"
# names Keras 3's save takes itself (its `.h5`/`.hdf5` write HDF5 as TF 1.x did)
KERAS3_NAMES = (".keras", ".h5", ".hdf5")
_SAVE_CALL = re.compile(r"\.\s*save\s*\(")


def _keras_program(text: str) -> bool:
    return "keras" in text and _SAVE_CALL.search(text) is not None


class _ImportedNames(cst.CSTVisitor):
    """Names the module binds by import (`np` of `import numpy as np`): a module's `save` is no model's."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            while isinstance(bound, cst.Attribute):
                bound = bound.value
            if isinstance(bound, cst.Name):
                self.names.add(bound.value)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                bound = alias.asname.name if alias.asname else alias.name
                if isinstance(bound, cst.Name):
                    self.names.add(bound.value)


def start(rewrite, module: cst.Module) -> frozenset[str]:
    finder = _ImportedNames()
    module.visit(finder)
    return frozenset(finder.names)


def _receiver_root(expression: cst.BaseExpression) -> str | None:
    while isinstance(expression, (cst.Attribute, cst.Call, cst.Subscript)):
        expression = expression.value if not isinstance(expression, cst.Call) else expression.func
    return expression.value if isinstance(expression, cst.Name) else None


def _routed(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.Call | None:
    if not _is_method(rewrite, original_node, {"save"}):
        return None
    if _receiver_root(original_node.func.value) in rewrite.state[NAME]:
        return None
    if (dotted_name(original_node.func) or "").endswith("keras_weights.save_model"):
        return None
    args = list(updated_node.args)
    if not args or args[0].star or (args[0].keyword is not None and args[0].keyword.value != "filepath"):
        return None
    positional = [arg for arg in args if arg.keyword is None]
    if len(positional) > 1 and not (isinstance(positional[1].value, cst.Name)
                                    and positional[1].value.value in ("True", "False")):
        return None   # `saver.save(sess, path)`: Keras' second position is the overwrite flag
    literal = _path_literal(args[0].value)
    if literal is not None and literal.endswith(KERAS3_NAMES):
        return None
    receiver = cst.Arg(updated_node.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return cst.Call(func=rewrite.spell(HELPER), args=[receiver, *args],
                    whitespace_before_args=updated_node.whitespace_before_args)


def leave_call(rewrite, original_node, updated_node):
    return _routed(rewrite, original_node, updated_node)


NAME = "KerasModelSaveName"
CODEMOD = Codemod(
    name=NAME,
    description="TF 1.x `model.save(path)` with a name Keras 3 refuses -> keras_weights.save_model "
                "(HDF5 under the program's name, decided at run time).",
    order=14,
    start=start,
    leave_call=leave_call,
    text_trigger=_keras_program,
    applies=_keras_program,
    tf1_only=True,
    reach=lambda text: frozenset({"save"}),   # the method name every such call holds
)
