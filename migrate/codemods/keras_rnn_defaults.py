"""TF 1.x Keras recurrent layers keep TF 1.x's defaults: `hard_sigmoid` gates, GRU without reset_after.

TF 1.15's `tf.keras.layers.LSTM` / `GRU` / `LSTMCell` / `GRUCell` (and standalone Keras up to 2.3)
defaulted to `recurrent_activation='hard_sigmoid'` and GRU to `reset_after=False`; TF 2.x's Keras,
tf-keras and Keras 3 default to `'sigmoid'` and `reset_after=True` (another layout of the GRU's bias
too). A migrated TF 1.x program that relied on the defaults trained another model with no error
(GoogleCloudPlatform/cloudml-samples tpu/templates/tpu_keras/trainer.py, 2018: `LSTM(10)`). Where the
call does not name them, the defaults are written out: with `--keras 2`, `'hard_sigmoid'` (tf-keras'
is TF 1.x's formula); with `--keras 3`, `estimator_bridge.compat.keras_tf1_activations.hard_sigmoid`
(Keras 3's `hard_sigmoid` has another slope). Files written against TF 2.x are left.
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.keras_methods import _key
from migrate.codemods.registry import Codemod, watched_names_only
from migrate.keras_target import keras_target

GATED_LAYERS = frozenset({"keras.layers.LSTM", "keras.layers.GRU", "keras.layers.LSTMCell", "keras.layers.GRUCell"})
RESET_AFTER_LAYERS = frozenset({"keras.layers.GRU", "keras.layers.GRUCell"})
HARD_SIGMOID_HELPER = "estimator_bridge.compat.keras_tf1_activations.hard_sigmoid"
# positional parameters of TF 1.15's constructors: (units, activation, recurrent_activation, ...)
_RECURRENT_ACTIVATION_POSITION = 2


def _keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(value=value, keyword=cst.Name(name),
                   equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                         whitespace_after=cst.SimpleWhitespace("")))


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call):
    key = _key(rewrite, original_node.func)
    if key not in GATED_LAYERS or any(arg.star for arg in original_node.args):
        return None
    given = {arg.keyword.value for arg in original_node.args if arg.keyword is not None}
    positional = sum(1 for arg in original_node.args if arg.keyword is None)
    added = []
    if "recurrent_activation" not in given and positional <= _RECURRENT_ACTIVATION_POSITION:
        value = (cst.SimpleString("'hard_sigmoid'") if keras_target() == 2
                 else rewrite.spell(HARD_SIGMOID_HELPER))
        added.append(_keyword("recurrent_activation", value))
    if key in RESET_AFTER_LAYERS and "reset_after" not in given:
        added.append(_keyword("reset_after", cst.Name("False")))
    if not added:
        return None
    args = list(updated_node.args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return updated_node.with_changes(args=args + added)


CODEMOD = Codemod(
    name="KerasRnnTf1Defaults",
    description="TF 1.x Keras LSTM/GRU(+Cell) without recurrent_activation/reset_after get TF 1.x's defaults "
                "written out (hard_sigmoid, reset_after=False).",
    order=13,
    leave_call=leave_call,
    structural_keys=GATED_LAYERS,
    tf1_only=True,
    reach=watched_names_only,   # acts only on Keras layer names reached through imports
)
