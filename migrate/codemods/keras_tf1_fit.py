"""In TF 1.x files, `model.fit(x, y, ...)` on arrays keeps TF 1.x's batches.

- `fit(x, y, steps_per_epoch=N)`, with a batch size or not: TF 1.x's Keras fed the whole arrays at
  each of the N steps (a batch size only batched the validation arrays); TF 2.x's Keras and Keras 3
  cut them into batches, so every loss differs.
- `fit(x, y, ...)` with `shuffle` not False: TF 1.x's Keras drew each epoch's order with numpy's
  global generator (a program that seeds numpy trained on the same batches every run); Keras 3 and
  tf-keras in TF 2 mode shuffle with TensorFlow's, so the batches differ from the first step. With
  validation arrays (`validation_data`, `validation_split`) whatever `shuffle` says: TF 1.x shuffled
  the validation rows with numpy after each epoch's training.
Whether `x` is an array cannot be seen here, so such a call becomes
`estimator_bridge.compat.keras_methods.fit_tf1(model, ...)`, which decides at run time (arrays and no
strategy: TF 1.x's batches; anything else: `model.fit` as written). Files written against TF 2.x
(engine.tf2_marker) are left: there `fit` already meant what Keras 3 does.
- `fit(..., validation_data=V)` and `fit_generator(..., validation_data=V)`: with V a generator, Sequence
  or dataset, TF 1.x's val_loss was the unweighted mean of the validation steps' losses (Keras 3 and
  tf-keras weigh them by batch size); the helper decides at run time (compat/keras_step_mean.py).
- `fit(data, steps_per_epoch=N, ...)` / `fit_generator(...)`: TF 1.x read a finite dataset or a generator
  through one iterator and stopped training when it ran out; Keras 3 and tf-keras restart it each epoch.
- `fit(x, y, ...)` with `shuffle` not False in a file that enters a non-default tf.distribute strategy's
  scope: TF 1.15 fitted a model of such a strategy on `Dataset.from_tensor_slices(arrays).shuffle(
  max(1024, 8 * batch_size)).repeat(epochs).batch(batch_size)`, its order seeded from the graph's seed
  and op count, which no TF 2 program draws again (unshuffled, the helper's `model.fit` gives TF 1.15's
  numbers). Reported (MIG212) with the replacement that keeps that pipeline with a seed.
- `fit(x)` without labels in such a file that defines a keras Sequence: TF 1.15 refused a Sequence under a
  non-default strategy (AssertionError: datasets only); Keras reads it as TF 2.x's Keras did. Reported (MIG213).
- `fit(x, ...)` without y: with x a keras Sequence, TF 1.x read it as one stream for the whole fit (its
  order drawn with Python's `random` per pass, a short Sequence cycled through); with x a dataset, its
  training loss was the mean of the step losses. The helper decides at run time, and calls the fit of
  anything that is not a Keras model (`scaler.fit(x)`) as written.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods import keras_methods, keras_tpu
from migrate.codemods.base import dotted_name
from migrate.codemods.keras_methods import _validation_restarted
from migrate.codemods.registry import Codemod

HELPER = "estimator_bridge.compat.keras_methods.fit_tf1"
# `--keras 2`: fit_generator stays (tf-keras has it); its validation loss goes through this helper
GENERATOR_HELPER = "estimator_bridge.compat.keras_methods.fit_generator_tf1"
_FIT_CALL = re.compile(r"\.\s*fit(?:_generator)?\s*\(")
# a non-default tf.distribute strategy created and a scope entered (TF 1.x's contrib.distribute names too)
_STRATEGY = re.compile(r"(?:OneDevice|Mirrored|CentralStorage|TPU|ParameterServer)Strategy\s*\(")
_SCOPE = re.compile(r"\.\s*scope\s*\(\s*\)")
# a class deriving from a keras Sequence (`tf.keras.utils.Sequence`, `keras.utils.Sequence`, `Sequence`)
_SEQUENCE_CLASS = re.compile(r"^\s*class\s+\w+\s*\([^)]*\bSequence\s*[,)]", re.MULTILINE)
# Before KerasRemovedMethods (14): its validation wrap of the same fit call is applied here too.


def _is_candidate(rewrite, call: cst.Call) -> bool:
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "fit":
        return False
    if dotted_name(func.value) is not None and rewrite.watched(func.value) and rewrite.import_names(func.value):
        return False   # a TensorFlow module's fit, not a model's
    keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    positional = [arg for arg in call.args if arg.keyword is None]
    if any(arg.star for arg in call.args):
        return False
    if "validation_data" in keywords:
        return True   # a generator, Sequence or dataset there: TF 1.x's val_loss was the mean of the step losses
    validation = [keywords.get("validation_split", positional[6].value if len(positional) > 6 else None),
                  positional[7].value if len(positional) > 7 else None]
    if any(value is not None and not _literal_off(value) for value in validation):
        return True   # validation arrays: TF 1.x shuffled their rows with numpy even with shuffle=False
    if "steps_per_epoch" in keywords:
        # x and y positionally, a batch size or not (arrays: TF 1.x's whole arrays each step), or x alone
        # (a dataset or generator: TF 1.x stopped when it ran out)
        return len(positional) <= 3
    with_y = len(positional) >= 2 or (len(positional) == 1 and "y" in keywords) or {"x", "y"} <= set(keywords)
    if not with_y:
        # x alone: a Sequence (TF 1.x's one stream over it) or a dataset (TF 1.x's training loss over steps)
        return bool(positional) or "x" in keywords
    # x and y given (arrays: a dataset or generator comes alone), TF 1.x's shuffle not turned off
    shuffle = keywords.get("shuffle", positional[8].value if len(positional) > 8 else None)
    return not (isinstance(shuffle, cst.Name) and shuffle.value == "False")


def _literal_off(node: cst.BaseExpression) -> bool:
    """`None`, `False`, `0` or `0.0` written as such: no validation."""
    if isinstance(node, cst.Name):
        return node.value in ("None", "False")
    if isinstance(node, (cst.Integer, cst.Float)):
        return float(node.value) == 0.0
    return False


def _under_strategy(text: str) -> bool:
    return _STRATEGY.search(text) is not None and _SCOPE.search(text) is not None


def call_findings(rewrite, call: cst.Call) -> list[tuple]:
    """`fit(x, y, ...)` that shuffles, in a file that builds models under a non-default strategy (MIG212)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "fit" or any(arg.star for arg in call.args):
        return []
    if not rewrite.source_has(_under_strategy) or not _is_candidate(rewrite, call):
        return []
    keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    positional = [arg.value for arg in call.args if arg.keyword is None]
    x = positional[0] if positional else keywords.get("x")
    y = positional[1] if len(positional) > 1 else keywords.get("y")
    shuffle = keywords.get("shuffle", positional[8] if len(positional) > 8 else None)
    if x is not None and y is None and rewrite.source_has(_defines_sequence):
        return [_sequence_finding(call)]
    if x is None or y is None or (shuffle is not None and _literal_off(shuffle)):
        return []
    code = cst.Module([]).code_for_node
    batch = keywords.get("batch_size", positional[2] if len(positional) > 2 else None)
    batch = "32" if batch is None or (isinstance(batch, cst.Name) and batch.value == "None") else code(batch)
    slices = f"tf.data.Dataset.from_tensor_slices(({code(x)}, {code(y)}))"
    return [(call, "MIG212",
             "`fit` on arrays shuffles: for a model built under a tf.distribute strategy (OneDevice, Mirrored, TPU) "
             f"TF 1.15 fed `{slices}.shuffle(max(1024, 8 * {batch})).repeat(epochs).batch({batch})`, its order "
             "seeded from the graph's seed and op count, which no TensorFlow 2 program draws again; Keras shuffles "
             "in its own order here (a model of the default strategy keeps TF 1.15's numpy order, and unshuffled "
             "the numbers are TF 1.15's)",
             f"for that pipeline with an order of your choosing, fit on `{slices}.shuffle(max(1024, 8 * {batch}), "
             f"seed=SEED).repeat().batch({batch})` with `steps_per_epoch=len({code(x)}) // {batch}` (TF 1.15 "
             "required whole batches there); or pass `shuffle=False`")]


def _defines_sequence(text: str) -> bool:
    return _SEQUENCE_CLASS.search(text) is not None


def _sequence_finding(call: cst.Call) -> tuple:
    """MIG213: `fit(x)` without labels, in a file that defines a keras Sequence and enters a non-default strategy."""
    return (call, "MIG213",
            "if `x` is a keras Sequence: for a model built under a tf.distribute strategy (OneDevice, Mirrored, TPU) "
            "TF 1.15's fit took tf.data datasets only and raised AssertionError (in "
            "`_distribution_standardize_user_data`); Keras reads the Sequence here as TF 2.x's Keras did (Python's "
            "`random` order per epoch), so the program runs where TF 1.15 stopped",
            "to train as TF 1.15 could, build the model outside the strategy's scope (TF 1.15's Sequence loop: the "
            "migrated fit gives its numbers there), or fit on a tf.data dataset")


def _generator_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    """`m.fit_generator(...)`: on Keras 3, KerasRemovedMethods' `m.fit(...)` through HELPER; on tf-keras (no
    KerasRemovedMethods) the call through GENERATOR_HELPER (validation loss, data that runs out)."""
    func = original_node.func
    if dotted_name(func.value) is not None and rewrite.watched(func.value) and rewrite.import_names(func.value):
        return None
    if any(arg.star for arg in original_node.args):
        return None
    if keras_methods.NAME not in rewrite.state:   # --keras 2: tf-keras' fit_generator
        return _through(rewrite, GENERATOR_HELPER, updated_node)
    inner = keras_methods.leave_call(rewrite, original_node, updated_node)
    if not isinstance(inner, cst.Call) or inner.func.attr.value != "fit":
        return inner
    if _converted(rewrite, inner):
        return inner   # a keras_to_tpu_model model's: KerasToTPUStrategy's statement rewrite wraps x, after this
    return _through(rewrite, HELPER, inner)


def _converted(rewrite, call: cst.Call) -> bool:
    """Whether the receiver of `call` is named like a model keras_to_tpu_model converted in this file: KerasToTPUStrategy
    feeds the fit that KerasRemovedMethods makes of its fit_generator through tpu_model_input, after the call
    rewrites (feeds_tpu_model_input cannot see it on the fit_generator call)."""
    state = rewrite.state.get(keras_tpu.NAME)
    receiver = dotted_name(call.func.value)
    return bool(state and receiver and any(name == receiver for _, name in state["conversions"]))


def _through(rewrite, helper: str, call: cst.Call) -> cst.Call:
    receiver = cst.Arg(call.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return cst.Call(func=rewrite.spell(helper), args=[receiver, *call.args],
                    whitespace_before_args=call.whitespace_before_args)


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    func = original_node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "fit_generator":
        return _generator_call(rewrite, original_node, updated_node)
    if not _is_candidate(rewrite, original_node):
        return None
    if keras_tpu.feeds_tpu_model_input(rewrite, original_node, updated_node):
        return None   # a keras_to_tpu_model model's: KerasToTPUStrategy's statement rewrite wraps x, after this
    # the same call's other rewrites first: KerasRemovedMethods' (Keras 3: float steps, validation restart),
    # else the validation restart alone
    if keras_methods.NAME in rewrite.state:
        inner = keras_methods.leave_call(rewrite, original_node, updated_node)
    else:
        inner = _validation_restarted(rewrite, updated_node)
    return _through(rewrite, HELPER, inner if isinstance(inner, cst.Call) else updated_node)


CODEMOD = Codemod(
    name="KerasTF1Fit",
    description="In TF1 files, fit(x, y, ...) on arrays gets TF 1.x's batches: the full arrays each step with "
                "steps_per_epoch, each epoch's order from numpy's generator when shuffled; a Sequence read as TF 1.x's "
                "one stream, a dataset's training loss over steps (decided at run time).",
    order=13,   # before KerasRemovedMethods (14), whose validation wrap of the same call is applied here
    leave_call=leave_call,
    call_findings=call_findings,
    text_trigger=lambda text: _FIT_CALL.search(text) is not None,
    tf1_only=True,
    # a `fit` on any receiver, only where the trigger fires (elsewhere it cannot act at all)
    reach=lambda text: None if _FIT_CALL.search(text) is not None else frozenset(),
)
