"""`LearningRateScheduler(schedule)` -> the schedule through a helper that accepts tensors, as Keras 2 did.

Keras 2 (TF 1.15-2.15) took a schedule returning a floating tf.Tensor (the `@tf.function` schedules
of 2020 TPU notebooks: training-data-analyst keras_104_flowers_gputputpupod_tf2.2.ipynb); Keras 3
raises ValueError "The output of the `schedule` function should be a float" at the first epoch.
Whether a schedule returns a tensor is not visible here, so every schedule given to
`tf.keras.callbacks.LearningRateScheduler` (first argument or `schedule=`) goes through
`estimator_bridge.compat.keras_methods.legacy_lr_schedule`, which changes only a tensor's type.
"""

from __future__ import annotations

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


def _spelled(node: cst.BaseExpression) -> str:
    return cst.Module([]).code_for_node(node)


CODEMOD = Codemod(
    name="KerasTensorSchedules",
    description="Let LearningRateScheduler's schedule return a tensor, as Keras 2 did.",
    order=17,
    leave_call=leave_call,
    structural_keys=frozenset({SCHEDULER}),
    reach=watched_names_only,   # acts on calls through TensorFlow imports only: line skipping stays on
)
