"""`tf.contrib.summary.record_summaries_every_n_global_steps(n[, global_step])` -> `tf.summary.record_if`.

TF 1.15 recorded summaries while `global_step % n == 0` (the global step from
`get_or_create_global_step()` when none is given). `tf.summary.record_if` takes that condition
as a callable, evaluated whenever a summary is written:

    tf.summary.record_if(lambda: tf.math.equal(tf.compat.v1.train.get_or_create_global_step() % n, 0))

A call whose arguments cannot be read statically (`*args`, `**kwargs`, unknown keywords, no `n`)
stays as it is and is reported (MIG301).
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

CADENCE = "tensorflow.contrib.summary.record_summaries_every_n_global_steps"
_PARAMETERS = ("n", "global_step")
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float)


def cadence_arguments(call: cst.Call) -> dict[str, cst.BaseExpression] | None:
    """{'n': ..., 'global_step': ...} of the call, or None when they cannot be read statically."""
    bound: dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args):
        if arg.star or (arg.keyword is None and index >= len(_PARAMETERS)):
            return None
        name = _PARAMETERS[index] if arg.keyword is None else arg.keyword.value
        if name not in _PARAMETERS:
            return None
        bound[name] = arg.value
    return bound if "n" in bound else None


def _operand(module: cst.Module, expression: cst.BaseExpression) -> str:
    code = module.code_for_node(expression)
    return code if isinstance(expression, _ATOMS) and not expression.lpar else f"({code})"


def is_cadence_call(rewrite, node: cst.Call) -> bool:
    name = dotted_name(node.func)
    if name is None or not name.endswith("record_summaries_every_n_global_steps"):
        return False
    return {canonical(q) for q in rewrite.import_names(node.func)} == {CADENCE} \
        and cadence_arguments(node) is not None


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    if not is_cadence_call(rewrite, original_node):
        return None
    bound = cadence_arguments(updated_node)
    module = cst.Module([])
    spelled = {target: module.code_for_node(rewrite.spell(target)) for target in (
        "tensorflow.summary.record_if", "tensorflow.math.equal",
        "tensorflow.compat.v1.train.get_or_create_global_step")}
    step = (_operand(module, bound["global_step"]) if "global_step" in bound
            else f"{spelled['tensorflow.compat.v1.train.get_or_create_global_step']}()")
    condition = f"{spelled['tensorflow.math.equal']}({step} % {_operand(module, bound['n'])}, 0)"
    rewrite.consume(original_node.func)  # its import may now be unused
    rewritten = cst.parse_expression(f"{spelled['tensorflow.summary.record_if']}(lambda: {condition})")
    return rewritten.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def claimed_by_call(rewrite, node: cst.Call) -> tuple[cst.CSTNode, ...]:
    return (node.func,) if is_cadence_call(rewrite, node) else ()


CODEMOD = Codemod(
    name="SummaryCadenceToRecordIf",
    description="Replace tf.contrib.summary.record_summaries_every_n_global_steps(n) by tf.summary.record_if(...).",
    order=11,
    leave_call=leave_call,
    claimed_by_call=claimed_by_call,
    structural_keys=frozenset({CADENCE}),
    reach=watched_names_only,
)
