"""In TF 1.x files, the crossentropies of `compile(loss=...)` keep TF 1.x's logits rule.

TF 1.15's Keras took a crossentropy's logits from the model's output op only when that op was the
loss's own activation (Softmax; Sigmoid for binary crossentropy) and otherwise took the output as
probabilities; Keras 3 and tf-keras take the input of any sigmoid or softmax as the logits, so a
`Dense(10, activation='sigmoid')` under `sparse_categorical_crossentropy` (tensorflow/tpu's
autoencoder_embeddings notebook, 2019) trains on another loss. The loss given to `compile` (keyword
`loss=` or TF 1.x's second position) as one of the strings 'categorical_crossentropy',
'sparse_categorical_crossentropy', 'binary_crossentropy', or as the `keras.losses` function of that
name, becomes `estimator_bridge.compat.keras_tf1_losses.<name>` (TF 1.15's rule at run time), on both
Keras targets. Files written against TF 2.x (engine.tf2_marker) are left: there Keras' rule was today's.
"""

from __future__ import annotations

import ast
import re

import libcst as cst

from migrate.codemods.keras_methods import _key
from migrate.codemods.registry import Codemod

HELPERS = "estimator_bridge.compat.keras_tf1_losses"
LOSSES = frozenset({"categorical_crossentropy", "sparse_categorical_crossentropy", "binary_crossentropy"})
FUNCTIONS = frozenset(f"keras.losses.{name}" for name in LOSSES)
_TRIGGER = re.compile(r"\.\s*compile\s*\(")
_LOSS_WORD = re.compile(r"\b(?:sparse_)?(?:categorical|binary)_crossentropy\b")


def _triggered(text: str) -> bool:
    return _TRIGGER.search(text) is not None and _LOSS_WORD.search(text) is not None


def _loss_index(call: cst.Call) -> int | None:
    """The index in `call.args` of the loss of an `X.compile(...)` call (keyword, or second positional)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "compile" or any(a.star for a in call.args):
        return None
    for index, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == "loss":
            return index
    positional = [index for index, arg in enumerate(call.args) if arg.keyword is None]
    return positional[1] if len(positional) > 1 else None


def _loss_name(rewrite, value: cst.BaseExpression) -> str | None:
    """The crossentropy `value` names (a string literal or a `keras.losses` function), else None."""
    if isinstance(value, cst.SimpleString):
        try:
            text = ast.literal_eval(value.value)
        except (ValueError, SyntaxError):
            return None
        return text if text in LOSSES else None
    key = _key(rewrite, value)
    return key.rsplit(".", 1)[1] if key in FUNCTIONS else None


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    index = _loss_index(original_node)
    if index is None or len(updated_node.args) != len(original_node.args):
        return None
    name = _loss_name(rewrite, original_node.args[index].value)
    if name is None:
        return None
    args = list(updated_node.args)
    args[index] = args[index].with_changes(value=rewrite.spell(f"{HELPERS}.{name}"))
    rewritten = updated_node.with_changes(args=args)
    # the first structural rewrite of a call wins (codemods/fused.py): the rewrite of the same compile
    # a later codemod makes (TF 1.x metric names, positional metrics) is asked here, on this call
    return rewrite.hand_on(leave_call, original_node, rewritten)


def claimed_by_call(rewrite, call: cst.Call):
    """The `keras.losses` reference the rewrite replaces."""
    index = _loss_index(call)
    if index is not None and not isinstance(call.args[index].value, cst.SimpleString) \
            and _loss_name(rewrite, call.args[index].value) is not None:
        return [call.args[index].value]
    return []


CODEMOD = Codemod(
    name="KerasTF1Losses",
    description="In TF1 files, crossentropy losses of compile() keep TF 1.x's logits rule (logits only from "
                "the loss's own activation op).",
    order=13,
    leave_call=leave_call,
    claimed_by_call=claimed_by_call,
    text_trigger=_triggered,
    tf1_only=True,
    # a `compile` on any receiver, only where the trigger fires
    reach=lambda text: None if _triggered(text) else frozenset(),
)
