"""`LearningRateScheduler(schedule)` -> the schedule through a helper that accepts tensors, as Keras 2 did.

Keras 2 (TF 1.15-2.15) took a schedule returning a floating tf.Tensor (the `@tf.function` schedules
of 2020 TPU notebooks); Keras 3
raises ValueError "The output of the `schedule` function should be a float" at the first epoch.
Whether a schedule returns a tensor is not visible here, so every schedule given to
`tf.keras.callbacks.LearningRateScheduler` (first argument or `schedule=`) goes through
`estimator_bridge.compat.keras_methods.legacy_lr_schedule`, which changes only a tensor's type.

Both LR callbacks (LearningRateScheduler, ReduceLROnPlateau) logged the learning rate as `lr` in
Keras 1.15-2.15 and log it as `learning_rate` in Keras 3, so `history.history['lr']` (a learning-
rate plot, a JSON dump) raised KeyError and `'lr' in history.history` turned False. In a file that
creates one of them, the literal key `'lr'` read from an `<x>.history` mapping becomes
`'learning_rate'`, in simple statements and in the headers of `if`/`elif`/`while`/`for`
(`if 'lr' in history.history:` left as it was turned False on Keras 3 and skipped its block).
"""

from __future__ import annotations

import re
from functools import lru_cache

import libcst as cst

from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

SCHEDULER = "keras.callbacks.LearningRateScheduler"
HELPER = "estimator_bridge.compat.keras_methods.legacy_lr_schedule"


def _is_scheduler(rewrite, call: cst.Call) -> bool:
    if not rewrite.watched(call.func):
        return False
    keys = {canonical(name) for name in rewrite.import_names(call.func)}
    return keys == {SCHEDULER}


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    if not _is_scheduler(rewrite, original_node):
        return None
    args, changed = [], False
    for index, arg in enumerate(updated_node.args):
        first = index == 0 and arg.keyword is None and not arg.star
        if (first or (arg.keyword is not None and arg.keyword.value == "schedule")) and not (
                isinstance(arg.value, cst.Call) and _spelled(arg.value.func).endswith("legacy_lr_schedule")):
            arg = arg.with_changes(value=cst.Call(func=rewrite.spell(HELPER), args=[cst.Arg(arg.value)]))
            changed = True
        args.append(arg)
    return updated_node.with_changes(args=args) if changed else None


_LR_KEY = re.compile(r"""\.history\s*\[\s*['"]lr['"]\s*\]|['"]lr['"]\s+(?:not\s+)?in\s+[\w.]*\.history\b""")
_LR_CALLBACKS = re.compile(r"\b(?:LearningRateScheduler|ReduceLROnPlateau)\b")


@lru_cache(maxsize=4)
def lr_key_to_rename(text: str) -> bool:
    """Asked about four times per module (the pre-filter's trigger, the partial parse's and the
    pass's reach, the handlers through `source_has`): one answer per text."""
    return _LR_KEY.search(text) is not None and _LR_CALLBACKS.search(text) is not None


def _history(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value == "history"


def _lr(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.SimpleString) and node.value in ("'lr'", '"lr"')


def _renamed(node: cst.SimpleString) -> cst.SimpleString:
    return node.with_changes(value=node.quote + "learning_rate" + node.quote)


class _LrKeys(cst.CSTTransformer):
    """`x.history['lr']` and `'lr' in x.history` -> 'learning_rate'."""

    def __init__(self) -> None:
        self.changed = False

    def leave_Subscript(self, original_node: cst.Subscript, updated_node: cst.Subscript) -> cst.Subscript:
        if _history(updated_node.value) and len(updated_node.slice) == 1:
            element = updated_node.slice[0]
            if isinstance(element.slice, cst.Index) and _lr(element.slice.value):
                self.changed = True
                index = element.slice.with_changes(value=_renamed(element.slice.value))
                return updated_node.with_changes(slice=[element.with_changes(slice=index)])
        return updated_node

    def leave_Comparison(self, original_node: cst.Comparison, updated_node: cst.Comparison) -> cst.Comparison:
        if _lr(updated_node.left) and len(updated_node.comparisons) == 1 \
                and isinstance(updated_node.comparisons[0].operator, (cst.In, cst.NotIn)) \
                and _history(updated_node.comparisons[0].comparator):
            self.changed = True
            return updated_node.with_changes(left=_renamed(updated_node.left))
        return updated_node


def leave_statement(rewrite, original_node, updated_node):
    if not rewrite.source_has(lr_key_to_rename):
        return None
    transformer = _LrKeys()
    rewritten = updated_node.visit(transformer)
    return rewritten if transformer.changed else None


def leave_header(rewrite, original_node, updated_node):
    """The test of an `if`/`elif`/`while`, the iterable of a `for` (its body is left to the
    statement handler)."""
    if not rewrite.source_has(lr_key_to_rename):
        return None
    field = "iter" if isinstance(updated_node, cst.For) else "test"
    transformer = _LrKeys()
    header = getattr(updated_node, field).visit(transformer)
    return updated_node.with_changes(**{field: header}) if transformer.changed else None


def _spelled(node: cst.BaseExpression) -> str:
    return cst.Module([]).code_for_node(node)


CODEMOD = Codemod(
    name="KerasTensorSchedules",
    description="Let LearningRateScheduler's schedule return a tensor, as Keras 2 did.",
    order=17,
    leave_call=leave_call,
    leave_statement=leave_statement,
    leave_header=leave_header,
    structural_keys=frozenset({SCHEDULER}),
    text_trigger=lr_key_to_rename,
    # the schedule rewrite acts on calls through TensorFlow imports only (line skipping stays on);
    # the history keys are read on any receiver, so where that trigger fires: any line
    reach=lambda text: None if lr_key_to_rename(text) else watched_names_only(text),
)
