"""`compile(optimizer='adam')` in TF 1.x Keras code -> an Adam that steps as TF 1.x's Keras did.

TF 1.x's Keras `Adam` (and Keras 2 up to TF 2.10) ran TensorFlow's `ApplyAdam` kernel, which forms
the moment decay rates in float32: 1 - float32(0.999) = 0.00099998713. Keras 3's `Adam` (and Keras
2.11+) forms them in Python: 1 - 0.999 = 0.001, so its second moment is 1.3e-5 larger and every step
6.4e-6 shorter, in the same direction at every step. A batch-normalised network's training loss
does not see the scale of its kernels, but its inference pass does: training-data-analyst's
01_MNIST_TPU_Keras (2018; batch norm, `'adam'`) validated 1.2e-5..4.6e-5 (relative) above TF 1.15
after 4-12 steps on both Keras targets, in every epoch and every draw, while the compat runner
(tf-keras on the kernel) stayed within 1.4e-6.

    model.compile(optimizer='adam', ...)
->  --keras 3: model.compile(optimizer=estimator_bridge.compat.keras_tf1_optimizers.KerasAdam(), ...)
    --keras 2: model.compile(optimizer=tf_keras.optimizers.legacy.Adam(), ...)

(KerasAdam runs the kernel as TF 1.x's Keras did; tf-keras' legacy Adam is that Keras 2 Adam itself.)
Only in modules that are TF 1.x code beyond doubt (`tf.contrib`, `keras_to_tpu_model`: what verify
also reads as written for TF 1.15): a TF 2.x program's `'adam'` was TF 2.11+'s Adam for verify's TF
2.15 oracle, which is Keras 3's arithmetic.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.keras_optimizers import compile_optimizer
from migrate.codemods.registry import Codemod
from migrate.keras_target import keras_target

TARGETS = {3: "estimator_bridge.compat.keras_tf1_optimizers.KerasAdam", 2: "tf_keras.optimizers.legacy.Adam"}
_TF1_KERAS = re.compile(r"\bcontrib\b|\bkeras_to_tpu_model\b")
_ADAM_STRING = re.compile(r"""\.compile\(.*['"]adam['"]""", re.IGNORECASE | re.DOTALL)


def tf1_keras_adam(text: str) -> bool:
    """A module of TF 1.x code that gives Keras compile the string 'adam'."""
    return _TF1_KERAS.search(text) is not None and _ADAM_STRING.search(text) is not None


def _is_adam(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.SimpleString) and node.evaluated_value.lower() == "adam"


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    if not rewrite.source_has(tf1_keras_adam):
        return None
    optimizer = compile_optimizer(updated_node)
    if optimizer is None or not _is_adam(optimizer):
        return None
    replacement = cst.Call(func=rewrite.spell(TARGETS[keras_target()]))
    rewritten = updated_node.with_changes(args=[arg.with_changes(value=replacement) if arg.value is optimizer
                                                else arg for arg in updated_node.args])
    # The same compile call is other codemods' too (KerasTF1MetricNames: metrics=['accuracy'] -> 'acc',
    # the key TF 1.x's history had); the fused pass offers a call to one rewriting handler only.
    for handler in rewrite.call_handlers_after(leave_call):
        rewritten = handler(rewrite, original_node, rewritten) or rewritten
    return rewritten


CODEMOD = Codemod(
    name="KerasTF1Adam",
    description="Give TF 1.x Keras code's compile(optimizer='adam') TF 1.x's Adam step (float32 decay rates).",
    order=13,
    leave_call=leave_call,
    text_trigger=tf1_keras_adam,
    applies=tf1_keras_adam,
    reach=lambda text: frozenset({"compile"}),
)
