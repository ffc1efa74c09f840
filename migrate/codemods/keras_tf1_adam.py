"""TF 1.x Keras code's Adam (`compile(optimizer='adam')`, `tf.keras.optimizers.Adam(...)`) -> an Adam
that steps as TF 1.x's Keras did.

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

    tf.keras.optimizers.Adam(lr=0.001)       (any spelling through a `tensorflow` import)
->  --keras 3: estimator_bridge.compat.keras_tf1_optimizers.KerasAdam(learning_rate=0.001)
    --keras 2: tf_keras.optimizers.legacy.Adam(learning_rate=0.001)

(KerasAdam runs the kernel as TF 1.x's Keras did; tf-keras' legacy Adam is that Keras 2 Adam itself.)
The constructor was the same optimizer as the string: tagtag/Behaviormetric's 3_3_convolution_tpu
notebook (`Adam(lr=0.001)` from tensorflow.keras.optimizers, keras_to_tpu_model) drifted 1.6e-4 from
TF 1.15 in 10 steps on Keras 3 while the runner stayed within 3e-6. On Keras 3 only the arguments
KerasAdam takes are rewritten (TF 1.x's `decay` and `amsgrad` are left to the table rewrite, which
reports `decay`); standalone Keras 2.x's `keras.optimizers.Adam` formed its rates in Python as Keras 3
does, and stays.
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
from migrate.resolve import canonical

TARGETS = {3: "estimator_bridge.compat.keras_tf1_optimizers.KerasAdam", 2: "tf_keras.optimizers.legacy.Adam"}
_TF1_KERAS = re.compile(r"\bcontrib\b|\bkeras_to_tpu_model\b")
_ADAM_STRING = re.compile(r"""\.compile\(.*['"]adam['"]""", re.IGNORECASE | re.DOTALL)
# not the bridge's own spellings a migrated file holds (its TF 1.x AdamOptimizer, the Keras 2 target's
# legacy Adam): a re-run of the codemod on its own output is then cleared without libcst
_ADAM_CALL = re.compile(r"(?<!keras_tf1_optimizers\.)(?<!optimizers\.legacy\.)\bAdam\s*\(")
KERAS_ADAM = "keras.optimizers.Adam"  # canonical name of tf.keras.optimizers.Adam in every spelling
# TF 1.15 Keras Adam's arguments that KerasAdam takes (its own and Keras 3's optimizer keywords).
KERAS_ADAM_ARGUMENTS = frozenset({"learning_rate", "lr", "beta_1", "beta_2", "epsilon", "name", "clipnorm",
                                  "clipvalue"})
POSITIONAL = 4  # learning_rate, beta_1, beta_2, epsilon (then TF 1.15's amsgrad, KerasAdam's name)


def tf1_keras_adam(text: str) -> bool:
    """A module of TF 1.x code that gives Keras compile the string 'adam' or calls an `Adam(...)`."""
    return _TF1_KERAS.search(text) is not None and (_ADAM_STRING.search(text) is not None
                                                    or _ADAM_CALL.search(text) is not None)


def _tf_keras_adam(rewrite, call: cst.Call) -> bool:
    """Whether `call` constructs tf.keras' Adam (reached through a `tensorflow` import)."""
    names = rewrite.import_names(call.func)
    return bool(names) and all(canonical(name) == KERAS_ADAM and name.startswith("tensorflow.") for name in names)


def _kernel_adam_arguments(call: cst.Call, target: int) -> list[cst.Arg] | None:
    """The constructor's arguments with `lr` spelled `learning_rate`; None where Keras 3's KerasAdam
    cannot take them (tf-keras' legacy Adam takes every TF 1.x one)."""
    if target == 3:
        positional = [arg for arg in call.args if arg.keyword is None]
        if any(arg.star for arg in call.args) or len(positional) > POSITIONAL or any(
                arg.keyword.value not in KERAS_ADAM_ARGUMENTS for arg in call.args if arg.keyword is not None):
            return None
    return [arg.with_changes(keyword=cst.Name("learning_rate"))
            if arg.keyword is not None and arg.keyword.value == "lr" else arg for arg in call.args]


def _constructor(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    target = keras_target()
    args = _kernel_adam_arguments(updated_node, target)
    if args is None:
        return None
    rewritten = updated_node.with_changes(func=rewrite.spell(TARGETS[target]), args=args)
    return rewrite.hand_on(leave_call, original_node, rewritten)


def _is_adam(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.SimpleString) and node.evaluated_value.lower() == "adam"


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    if not rewrite.source_has(tf1_keras_adam):
        return None
    if _tf_keras_adam(rewrite, original_node):
        return _constructor(rewrite, original_node, updated_node)
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
    description="Give TF 1.x Keras code's Adam ('adam' in compile, tf.keras' Adam(...)) TF 1.x's Adam step "
                "(float32 decay rates).",
    order=13,
    leave_call=leave_call,
    text_trigger=tf1_keras_adam,
    applies=tf1_keras_adam,
    reach=lambda text: frozenset({"compile"}),
)
