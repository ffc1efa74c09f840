"""In TF 1.x files, `model.fit(x, y, steps_per_epoch=N)` without a batch size keeps TF 1.x's meaning.

TF 1.x's Keras fed the whole arrays at each of the N steps; TF 2.x's Keras and Keras 3 cut them
into N batches, so every loss differs. Whether `x` is an array cannot be
seen here, so such a call becomes `estimator_bridge.compat.keras_methods.fit_tf1(model, ...)`,
which decides at run time (arrays, no batch size, no strategy: the full arrays each step; anything
else: `model.fit` as written). Files written against TF 2.x (engine.tf2_marker) are left: there
`fit` already meant what Keras 3 does.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.keras_methods import _validation_restarted
from migrate.codemods.registry import Codemod

HELPER = "estimator_bridge.compat.keras_methods.fit_tf1"
_FIT_WITH_STEPS = re.compile(r"\.\s*fit\s*\((?:[^()]|\([^()]*\))*\bsteps_per_epoch\s*=")
# Before KerasRemovedMethods (14): its validation wrap of the same fit call is applied here too.


def _is_candidate(rewrite, call: cst.Call) -> bool:
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "fit":
        return False
    if dotted_name(func.value) is not None and rewrite.watched(func.value) and rewrite.import_names(func.value):
        return False   # a TensorFlow module's fit, not a model's
    keywords = {arg.keyword.value for arg in call.args if arg.keyword is not None}
    positional = [arg for arg in call.args if arg.keyword is None]
    if any(arg.star for arg in call.args) or "steps_per_epoch" not in keywords:
        return False
    # x and y given positionally (arrays; a dataset or generator comes alone), no batch size
    return len(positional) == 2 and "batch_size" not in keywords


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    if not _is_candidate(rewrite, original_node):
        return None
    validated = _validation_restarted(rewrite, updated_node)   # asked first: the same call's other rewrite
    updated_node = validated if validated is not None else updated_node
    receiver = cst.Arg(updated_node.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return cst.Call(func=rewrite.spell(HELPER), args=[receiver, *updated_node.args],
                    whitespace_before_args=updated_node.whitespace_before_args)


CODEMOD = Codemod(
    name="KerasTF1FitSteps",
    description="In TF1 files, fit(arrays, steps_per_epoch=N) without batch_size feeds the full arrays each step, as TF 1.x did.",
    order=13,   # before KerasRemovedMethods (14), whose validation wrap of the same call is applied here
    leave_call=leave_call,
    text_trigger=lambda text: _FIT_WITH_STEPS.search(text) is not None,
    tf1_only=True,
    # a `fit` on any receiver, only where the trigger fires (elsewhere it cannot act at all)
    reach=lambda text: None if _FIT_WITH_STEPS.search(text) is not None else frozenset(),
)
