"""In TF 1.x files, `compile(metrics=['accuracy', 'mae'])` keeps TF 1.x's metric names.

TF 1.x's Keras named a metric given by string `acc` for 'accuracy' and after its function for
the aliases ('mae' -> 'mean_absolute_error'); Keras 3 (as Keras 2 under TF2) keeps the string.
The history keys, `metrics_names` and the logs callbacks see changed with it, so the TF 1.x
notebooks that plot `history.history['acc']` raised KeyError after migration (training-data-
analyst's 07_Keras_Flowers_TPU_squeezenet of 2019). The strings are rewritten to the Keras 3
spelling that selects the same metric under TF 1.x's name (migrate/tables/keras.py:
TF1_METRIC_NAMES); strings Keras 3 does not know ('crossentropy', 'ce', 'logcosh') are reported.
Only string literals in a list or tuple given as `metrics=` are touched; files written against
TF 2.x (engine.tf2_marker) are left: there Keras already named them as Keras 3 does.
"""

from __future__ import annotations

import ast
import re

import libcst as cst

from migrate.codemods.registry import Codemod
from migrate.tables.keras import TF1_METRIC_NAMES, TF1_METRICS_WITHOUT_KERAS3_NAME

NAME = "KerasTF1MetricNames"
_STRINGS = "|".join(sorted({*TF1_METRIC_NAMES, *TF1_METRICS_WITHOUT_KERAS3_NAME}))
_TRIGGER = re.compile(r"\bmetrics\s*=\s*[\[(][^\])]*['\"](?:%s)['\"]" % _STRINGS)


def _metric_strings(call: cst.Call):
    """The string literals of `.compile(..., metrics=[...])` (a list or tuple), else nothing."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "compile":
        return []
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "metrics" and isinstance(arg.value, (cst.List, cst.Tuple)):
            return [element.value for element in arg.value.elements
                    if isinstance(element.value, cst.SimpleString)]
    return []


def _text(node: cst.SimpleString) -> str | None:
    try:
        value = ast.literal_eval(node.value)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


class _Rename(cst.CSTTransformer):
    def leave_SimpleString(self, original_node: cst.SimpleString, updated_node: cst.SimpleString):
        new = TF1_METRIC_NAMES.get(_text(original_node) or "")
        if new is None:
            return updated_node
        quote = updated_node.quote
        return updated_node.with_changes(value=updated_node.prefix + quote + new + quote)


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    if not any(_text(s) in TF1_METRIC_NAMES for s in _metric_strings(original_node)):
        return None
    args = []
    for arg in updated_node.args:
        if arg.keyword is not None and arg.keyword.value == "metrics":
            arg = arg.with_changes(value=arg.value.visit(_Rename()))
        args.append(arg)
    return updated_node.with_changes(args=args)


def call_findings(rewrite, call: cst.Call) -> list[tuple]:
    findings = []
    for string in _metric_strings(call):
        text = _text(string)
        if text in TF1_METRICS_WITHOUT_KERAS3_NAME:
            tf1_name, instead = TF1_METRICS_WITHOUT_KERAS3_NAME[text]
            findings.append((string, "MIG207", f"metric {text!r} is unknown to Keras 3 (ValueError at compile); "
                             f"TF 1.x named it {tf1_name!r}", f"pass {instead}"))
    return findings


CODEMOD = Codemod(
    name=NAME,
    description="In TF1 files, metric strings of compile() keep TF 1.x's metric names ('accuracy' -> 'acc').",
    order=15,
    leave_call=leave_call,
    call_findings=call_findings,
    text_trigger=lambda text: _TRIGGER.search(text) is not None,
    tf1_only=True,
    # a `compile` on any receiver, only where the trigger fires
    reach=lambda text: None if _TRIGGER.search(text) is not None else frozenset(),
)
