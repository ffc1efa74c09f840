"""A program's own metric functions in `compile(metrics=[...])` get Keras 2's inputs (Keras 3 target).

Keras 2 (TF 1.x's tf.keras to TF 2.15's) cast `y_true` and `y_pred` to float32 and brought them to
one rank before calling a metric function; Keras 3 calls it on the tensors as they come, so `(batch,)` labels against a
`(batch, 1)` output broadcast to `(batch, batch)` in a user's `rmse` (training-data-analyst's
Taxifare notebook, 2019: every batch's rmse off by 1.5e-4 relative, the loss itself equal). Each
element of a `metrics=` list or tuple that is a plain name not bound by a TensorFlow or Keras import
(its own function, or one of its modules': `from metrics import auc_roc`) becomes `estimator_bridge.compat.keras2_metrics.metric(<name>)`, which wraps a function
(and passes anything else through) at run time. Keras 3 only: tf-keras calls metric functions as
Keras 2 always did.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.registry import Codemod

NAME = "Keras2MetricFunctions"
HELPER = "estimator_bridge.compat.keras2_metrics.metric"
# a `metrics=` list or tuple with a bare identifier among its elements
_TRIGGER = re.compile(r"\bmetrics\s*=\s*[\[(](?:[^\])]*[,\[(]\s*)?[A-Za-z_]\w*\s*[,\])]")


def _triggered(text: str) -> bool:
    return _TRIGGER.search(text) is not None and re.search(r"\.\s*compile\s*\(", text) is not None


def _metrics_index(call: cst.Call) -> int | None:
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "compile":
        return None
    for index, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == "metrics":
            return index
    return None


def _own_functions(rewrite, value: cst.BaseExpression) -> list[int]:
    """Indexes of the elements of a `metrics=` list/tuple that are names not bound by a TensorFlow or
    Keras import (the program's functions, its own modules' included)."""
    if not isinstance(value, (cst.List, cst.Tuple)):
        return []
    return [index for index, element in enumerate(value.elements)
            if isinstance(element.value, cst.Name) and element.value.value not in ("None", "True", "False")
            and not rewrite.watched(element.value)]


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    index = _metrics_index(original_node)
    if index is None or len(updated_node.args) != len(original_node.args):
        return None
    own = _own_functions(rewrite, original_node.args[index].value)
    value = updated_node.args[index].value
    if not own or not isinstance(value, (cst.List, cst.Tuple)) or len(value.elements) != len(
            original_node.args[index].value.elements):
        return None
    elements = list(value.elements)
    for position in own:
        element = elements[position]
        elements[position] = element.with_changes(
            value=cst.Call(func=rewrite.spell(HELPER), args=[cst.Arg(element.value)]))
    args = list(updated_node.args)
    args[index] = args[index].with_changes(value=value.with_changes(elements=elements))
    rewritten = updated_node.with_changes(args=args)
    # the first structural rewrite of a call wins (codemods/fused.py): a later codemod's rewrite of the
    # same compile (TF 1.x metric names) is asked here, on this call
    return rewrite.hand_on(leave_call, original_node, rewritten)


CODEMOD = Codemod(
    name=NAME,
    description="(Keras 3) The program's own metric functions in compile() get Keras 2's inputs "
                "(float32, one rank).",
    order=14,
    leave_call=leave_call,
    text_trigger=_triggered,
    # a `compile` on any receiver, only where the trigger fires
    reach=lambda text: None if _triggered(text) else frozenset(),
)
