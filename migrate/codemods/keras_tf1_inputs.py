"""In TF 1.x Keras files, `model.predict(x)` and its kin keep TF 1.x's rank-1 inputs.

TF 1.x's Keras fed a 1-D array (or a list of numbers) given to an input of rank 2 as an (n, 1)
column, in predict, predict_on_batch, evaluate, train_on_batch and test_on_batch alike; Keras 3 and
tf-keras refuse the list, and the 1-D array once the method has run on a 2-D one (tensorflow/tpu
models/experimental/keras_colab/shakespeare_lstm.py: `prediction_model.predict(last_word)` with
`last_word` of shape (5,) after (5, 1)). What `x` is cannot be seen here, so such a call becomes
`estimator_bridge.compat.keras_tf1_inputs.<method>_tf1(model, ...)`, which decides at run time.
Only files that name Keras, calls that pass `x` (first positional or `x=`), and not an Estimator's
`predict`/`evaluate` (an `input_fn`) nor a keras_to_tpu_model model's `evaluate(dataset_function)`
(KerasToTPUStrategy feeds that x through `tpu_model_input`; its rewrite works on the statement line,
after the call rewrites, so it must still find `tpu_model.evaluate(`). Files written against TF 2.x
(engine.tf2_marker) are left.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods import keras_methods, keras_tpu
from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod
from migrate.tables.keras import REMOVED_METHODS

HELPERS = "estimator_bridge.compat.keras_tf1_inputs"
METHODS = ("predict", "predict_on_batch", "evaluate", "train_on_batch", "test_on_batch")
# Keras 2 methods KerasRemovedMethods turns into one of METHODS (`predict_generator` -> `predict`)
RENAMED = tuple(name for name, entry in REMOVED_METHODS.items() if entry.target in METHODS)
_CALL = re.compile(r"\.\s*(?:%s)\s*\(" % "|".join(METHODS + RENAMED))


# The bridge's own helper modules (estimator_bridge.compat.keras_methods, ...) that earlier rewrites
# import: they do not make a file Keras (a contrib.learn SKCompat `clf.fit(x, y, steps=...)` gets
# keras_methods.fit_tf1; a second run then took its `clf.predict(x)` for a Keras model's).
_BRIDGE_KERAS_MODULES = re.compile(r"estimator_bridge\.compat\.keras\w*")


def _keras_file(text: str) -> bool:
    return "keras" in _BRIDGE_KERAS_MODULES.sub("", text) and _CALL.search(text) is not None


def _is_candidate(rewrite, original_node: cst.Call, call: cst.Call) -> bool:
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in METHODS:
        return False
    receiver = original_node.func.value
    if dotted_name(receiver) is not None and rewrite.import_names(receiver):
        return False   # an imported module's or class's function (`tf.keras.Model.predict`), not a model's method
    if any(arg.star for arg in call.args) or keras_methods._estimator_call(call):
        return False
    if keras_tpu.feeds_tpu_model_input(rewrite, original_node, call):
        return False   # a dataset function: KerasToTPUStrategy's statement rewrite wraps x, after this pass's call rewrites
    first = call.args[0] if call.args else None
    return first is not None and (first.keyword is None or first.keyword.value == "x")


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    func = original_node.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in METHODS + RENAMED:
        return None
    inner = None
    if keras_methods.NAME in rewrite.state:   # Keras 3 target: its rewrite of the same call comes first
        inner = keras_methods.leave_call(rewrite, original_node, updated_node)
    elif func.attr.value == "evaluate_generator" and not any(arg.star for arg in updated_node.args):
        # tf-keras keeps evaluate_generator, with a loss averaged over samples, not TF 1.x's over steps
        receiver = dotted_name(original_node.func.value)
        if receiver is None or not rewrite.import_names(original_node.func.value):
            return cst.Call(func=rewrite.spell(f"{HELPERS}.evaluate_generator_tf1"),
                            args=[cst.Arg(updated_node.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                                  *updated_node.args], whitespace_before_args=updated_node.whitespace_before_args)
    call = inner if inner is not None else updated_node
    if not (isinstance(call, cst.Call) and _is_candidate(rewrite, original_node, call)):
        return inner
    receiver = cst.Arg(call.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return cst.Call(func=rewrite.spell(f"{HELPERS}.{call.func.attr.value}_tf1"),
                    args=[receiver, *call.args], whitespace_before_args=call.whitespace_before_args)


CODEMOD = Codemod(
    name="KerasTF1Inputs",
    description="In TF1 Keras files, predict/evaluate/*_on_batch(x, ...) feed a 1-D x to a rank-2 input as "
                "(n, 1), as TF 1.x's Keras did (decided at run time).",
    order=13,   # before KerasRemovedMethods (14), whose rewrite of the same call (predict_generator, float steps) is applied here
    leave_call=leave_call,
    text_trigger=_keras_file,
    applies=_keras_file,
    tf1_only=True,
    # a method call on any receiver, only where the trigger fires (elsewhere it cannot act at all)
    reach=lambda text: None if _keras_file(text) else frozenset(),
)
