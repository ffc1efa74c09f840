"""`tf.contrib.framework.get_variables()` & co. -> `tf.compat.v1.global_variables()` & co.

TF 1.15's contrib getters (contrib/framework/python/ops/variables.py) are
`get_collection(collection, scope)` after two conversions: a VariableScope `scope` becomes its
name, and a `suffix` is folded into the scope regex. `tf.compat.v1.global_variables(scope)`
(and trainable_/local_/model_variables) is `get_collection(<that collection>, scope)` in TF 2.21
too. So the calls without `suffix`/`collection` whose scope is absent, `None` or a string literal
are the same call; any other call (a scope held in a variable may be a VariableScope, which
get_collection's regex refuses) stays and is reported (MIG301, hint: migrate/tables/hints.py).
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

TARGETS = {
    "tensorflow.contrib.framework.get_variables": "tensorflow.compat.v1.global_variables",
    "tensorflow.contrib.framework.get_trainable_variables": "tensorflow.compat.v1.trainable_variables",
    "tensorflow.contrib.framework.get_local_variables": "tensorflow.compat.v1.local_variables",
    "tensorflow.contrib.framework.get_model_variables": "tensorflow.compat.v1.model_variables",
}
_STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def _key(rewrite, call: cst.Call) -> str | None:
    """The getter a call this codemod rewrites calls, else None."""
    if not rewrite.watched(call.func):
        return None
    keys = {canonical(name) for name in rewrite.import_names(call.func)}
    if len(keys) != 1 or next(iter(keys)) not in TARGETS:
        return None
    if not call.args:
        return next(iter(keys))
    if len(call.args) != 1:
        return None
    arg = call.args[0]
    if arg.star or (arg.keyword is not None and arg.keyword.value != "scope"):
        return None
    value = arg.value
    if isinstance(value, _STRINGS) or (isinstance(value, cst.Name) and value.value == "None"):
        return next(iter(keys))
    return None


def claimed_by_call(rewrite, call: cst.Call) -> tuple[cst.CSTNode, ...]:
    return (call.func,) if _key(rewrite, call) is not None else ()


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    key = _key(rewrite, original_node)
    if key is None:
        return None
    rewrite.consume(original_node.func)
    return updated_node.with_changes(func=rewrite.spell(TARGETS[key]))


CODEMOD = Codemod(
    name="ContribVariableGetters",
    description="Replace tf.contrib.framework.get_variables() & co. by tf.compat.v1.global_variables() & co.",
    order=16,
    leave_call=leave_call,
    claimed_by_call=claimed_by_call,
    structural_keys=frozenset(TARGETS),
    reach=watched_names_only,
)
