"""In TF 1.x files, `compile(metrics=['accuracy', 'mae'])` keeps TF 1.x's metric names.

TF 1.x's Keras named a metric given by string `acc` for 'accuracy' and after its function for
the aliases ('mae' -> 'mean_absolute_error'); Keras 3 (as Keras 2 under TF2) keeps the string.
The history keys, `metrics_names` and the logs callbacks see changed with it, so the TF 1.x
notebooks that plot `history.history['acc']` raised KeyError after migration (training-data-
analyst's 07_Keras_Flowers_TPU_squeezenet of 2019). The strings are rewritten to the Keras 3
spelling that selects the same metric under TF 1.x's name (migrate/tables/keras.py:
TF1_METRIC_NAMES); strings Keras 3 does not know ('crossentropy', 'ce', 'logcosh') are reported.
Only string literals in a list or tuple given as `metrics=` are touched, written there or
assigned to a plain name that reaches a `compile(metrics=<name>)` (`METRICS = ['accuracy']` at the
top of a notebook; the assignment's list is rewritten); files written against TF 2.x
(engine.tf2_marker) are left: there Keras already named them as Keras 3 does; so are files that
read TF 2.x's history keys (`history.history['val_accuracy']`) and none of TF 1.x's.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

import libcst as cst

from migrate.codemods.registry import Codemod
from migrate.tables.keras import TF1_METRIC_NAMES, TF1_METRICS_WITHOUT_KERAS3_NAME

NAME = "KerasTF1MetricNames"
_STRINGS = "|".join(sorted({*TF1_METRIC_NAMES, *TF1_METRICS_WITHOUT_KERAS3_NAME}))
_TRIGGER = re.compile(r"\bmetrics\s*=\s*[\[(][^\])]*['\"](?:%s)['\"]" % _STRINGS)
# a list held in a name: `<name> = [... 'accuracy' ...]` and a `metrics=<name>`
_NAMED_LIST = re.compile(r"\b\w+\s*=\s*[\[(][^\])]*['\"](?:%s)['\"]" % _STRINGS)
_METRICS_NAME = re.compile(r"\bmetrics\s*=\s*[A-Za-z_]\w*\s*[,)]")


@lru_cache(maxsize=4)
def _triggered(text: str) -> bool:
    """Asked three times per module (the pre-filter's trigger, the partial parse's and the pass's
    reach), so the answer is kept."""
    return _TRIGGER.search(text) is not None or (
        _METRICS_NAME.search(text) is not None and _NAMED_LIST.search(text) is not None)


# History keys a file reads: `history.history['val_accuracy']` names the metric as TF 2.x's Keras
# did, `['acc']` / `['val_acc']` as TF 1.x's. A TF 2.0-2.1 notebook can use only names TF 1.15 also
# has (training-data-analyst's 05K_MNIST_TF20Keras of 2019-2020: tf.distribute.experimental.
# TPUStrategy, tf.io.decode_raw), so engine.tf2_marker reads it as TF 1.x; its own history reads
# say which names it was written for.
_TF2_KEY_READ = re.compile(r"""\.history\s*\[\s*['"](?:val_)?accuracy['"]\s*\]""")
_TF1_KEY_READ = re.compile(r"""\.history\s*\[\s*['"](?:val_)?acc['"]\s*\]""")


def _applies(text: str) -> bool:
    """Off for a file that reads TF 2.x's history keys and none of TF 1.x's."""
    return not (_TF2_KEY_READ.search(text) and not _TF1_KEY_READ.search(text))


def _metrics_argument(call: cst.Call) -> cst.BaseExpression | None:
    """The `metrics=` value of a `.compile(...)` call, else None."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "compile":
        return None
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "metrics":
            return arg.value
    return None


def _strings(value: cst.BaseExpression):
    if not isinstance(value, (cst.List, cst.Tuple)):
        return []
    return [element.value for element in value.elements if isinstance(element.value, cst.SimpleString)]


def _metric_strings(call: cst.Call):
    """The string literals of `.compile(..., metrics=[...])` (a list or tuple), else nothing."""
    value = _metrics_argument(call)
    return [] if value is None else _strings(value)


class _NamedLists(cst.CSTVisitor):
    """`compile(metrics=<name>)` names; `<name> = [<a TF1-renamed string>, ...]` assignments."""

    def __init__(self) -> None:
        self.metric_names: list[cst.Name] = []
        self.assignments: list[cst.Assign] = []

    def visit_Call(self, node: cst.Call) -> None:
        value = _metrics_argument(node)
        if isinstance(value, cst.Name):
            self.metric_names.append(value)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) \
                and any(_text(s) in TF1_METRIC_NAMES for s in _strings(node.value)):
            self.assignments.append(node)


def start(rewrite, module: cst.Module) -> set[int]:
    """ids of the assigned lists whose name reaches a `compile(metrics=<name>)`."""
    if not rewrite.source_has(_METRICS_NAME):
        return set()
    found = _NamedLists()
    module.visit(found)
    if not found.metric_names:
        return set()
    lists = set()
    for assignment in found.assignments:
        target = assignment.targets[0].target
        if not any(name.value == target.value for name in found.metric_names):
            continue
        if rewrite.names is not None:
            reaches = rewrite.names.store_accesses(target, found.metric_names)
        else:
            scope = rewrite.scope_of(target)
            wanted = {id(name) for name in found.metric_names}
            reaches = scope is not None and any(
                getattr(binding, "node", None) is target and any(id(a.node) in wanted for a in binding.references)
                for binding in scope.assignments[target.value])
        if reaches:
            lists.add(id(assignment.value))
    return lists


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


def leave_statement(rewrite, original_node, updated_node):
    """`METRICS = ['accuracy']` whose name reaches a compile's `metrics=`: its list renamed."""
    lists = rewrite.state.get(NAME) or set()
    if not lists or not isinstance(original_node, cst.SimpleStatementLine):
        return None
    body, changed = list(updated_node.body), False
    for index, small in enumerate(original_node.body):
        if isinstance(small, cst.Assign) and id(small.value) in lists:
            body[index] = body[index].with_changes(value=body[index].value.visit(_Rename()))
            changed = True
    return updated_node.with_changes(body=body) if changed else None


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
    start=start,
    leave_call=leave_call,
    leave_statement=leave_statement,
    call_findings=call_findings,
    text_trigger=_triggered,
    applies=_applies,
    tf1_only=True,
    # a `compile` on any receiver, and a list assigned to any name, only where the trigger fires
    reach=lambda text: None if _triggered(text) else frozenset(),
)
