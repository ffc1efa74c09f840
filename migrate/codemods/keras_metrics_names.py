"""`model.metrics_names` -> `estimator_bridge.compat.keras_methods.metrics_names(model)`.

Keras 2 listed one name per number evaluate returns (['loss', 'acc', 'mae']); Keras 3 lists its
metric objects (['loss', 'compile_metrics']), so the everyday `dict(zip(model.metrics_names,
model.evaluate(...)))` silently paired 'compile_metrics' with the first metric and dropped the
others (measured on Keras 3.15 against TF 2.15). Every read of `<x>.metrics_names` on a receiver
that is not a TensorFlow module goes through the helper, which lists the names in evaluate's order;
assignments to the attribute are left.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod

NAME = "KerasMetricsNames"
HELPER = "estimator_bridge.compat.keras_methods.metrics_names"
_READ = re.compile(r"\.\s*metrics_names\b")


class _Targets(cst.CSTVisitor):
    """ids of `x.metrics_names` nodes that are written (assignment, augmented assignment, del)."""

    def __init__(self) -> None:
        self.ids: set[int] = set()

    def _mark(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.Attribute) and node.attr.value == "metrics_names":
            self.ids.add(id(node))
        elif isinstance(node, (cst.Tuple, cst.List)):
            for element in node.elements:
                self._mark(element.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._mark(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._mark(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._mark(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._mark(node.target)


def start(rewrite, module: cst.Module) -> set[int]:
    if not rewrite.source_has(_READ):
        return set()
    targets = _Targets()
    module.visit(targets)
    return targets.ids


def _module(rewrite, node: cst.BaseExpression) -> bool:
    """A module's attribute (TensorFlow's, or the helper's own module), not a model's."""
    receiver = dotted_name(node)
    return receiver is not None and (receiver == "estimator_bridge" or receiver.startswith("estimator_bridge.")
                                     or (rewrite.watched(node) and bool(rewrite.import_names(node))))


def _rewritten(rewrite, node: cst.BaseExpression, written: set[int]) -> cst.BaseExpression | None:
    """`node` with its read of `<x>.metrics_names` (itself or down its attribute chain) through the
    helper, else None. A dotted chain (`model.metrics_names.index`) is left by the traversal as one
    piece, so the read is looked for down the chain."""
    if not isinstance(node, cst.Attribute):
        return None
    if node.attr.value == "metrics_names" and id(node) not in written and not _module(rewrite, node.value):
        return cst.Call(func=rewrite.spell(HELPER), args=[cst.Arg(node.value)])
    inner = _rewritten(rewrite, node.value, written)
    return None if inner is None else node.with_changes(value=inner)


def leave_attribute(rewrite, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression | None:
    written = rewrite.state[NAME]
    if id(original_node) in written:
        return None
    return _rewritten(rewrite, updated_node, written)


CODEMOD = Codemod(
    name=NAME,
    description="Read Keras 2's metrics_names (one name per evaluate number) through a helper on Keras 3.",
    order=18,
    start=start,
    leave_attribute=leave_attribute,
    text_trigger=lambda text: _READ.search(text) is not None,
    # any receiver, only where the trigger fires
    reach=lambda text: None if _READ.search(text) is not None else frozenset(),
)
