"""`ds.apply(tf.contrib.data.X(...))` -> the Dataset methods TensorFlow recommends instead.

batch_and_drop_remainder(n)          -> ds.batch(n, drop_remainder=True)
padded_batch_and_drop_remainder(...) -> ds.padded_batch(..., drop_remainder=True)
map_and_batch(f, n, ...)             -> ds.map(f[, num_parallel_calls]).batch(n[, drop_remainder])
parallel_interleave(f, cycle, ...)   -> ds.interleave(f, cycle_length=..., num_parallel_calls=AUTOTUNE)
shuffle_and_repeat(buffer, count)    -> ds.shuffle(buffer[, seed=]).repeat(count)
The element order is unchanged (TensorFlow's deprecation notes name these as the replacements;
tf.data fuses them back). Forms with arguments these cannot express stay and are reported.
"""

from __future__ import annotations

from typing import Callable

import libcst as cst
from migrate.codemods.call_arguments import bind_arguments
from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical
from migrate.tables.contrib import DATASET_METHODS

# Parameter names of the TF 1.15 functions, in order (to read positional arguments).
_PARAMETERS = {
    "tensorflow.contrib.data.batch_and_drop_remainder": ("batch_size",),
    "tensorflow.contrib.data.padded_batch_and_drop_remainder": ("batch_size", "padded_shapes", "padding_values"),
    "tensorflow.contrib.data.map_and_batch": (
        "map_func", "batch_size", "num_parallel_batches", "drop_remainder", "num_parallel_calls"),
    "tensorflow.contrib.data.parallel_interleave": (
        "map_func", "cycle_length", "block_length", "sloppy", "buffer_output_elements", "prefetch_input_elements"),
    "tensorflow.contrib.data.shuffle_and_repeat": ("buffer_size", "count", "seed"),
}


def _arguments(key: str, call: cst.Call) -> dict[str, cst.BaseExpression] | None:
    """The call's arguments by TF 1.15 parameter name, or None when they cannot be read statically."""
    bound = bind_arguments(call.args, _PARAMETERS[key])
    return None if bound is None else {name: arg.value for name, arg in bound.items()}


def _arg(value: cst.BaseExpression, keyword: str | None = None) -> cst.Arg:
    if keyword is None:
        return cst.Arg(value)
    return cst.Arg(value, keyword=cst.Name(keyword), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))


def _method(receiver: cst.BaseExpression, name: str, args: list[cst.Arg]) -> cst.Call:
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(name)), args=args)


def _is_literal(value: cst.BaseExpression, literal: str) -> bool:
    return isinstance(value, cst.Name) and value.value == literal


def rewrite_apply(receiver: cst.BaseExpression, key: str, call: cst.Call,
                  spell: Callable[[str], cst.BaseExpression]) -> cst.Call | None:
    """The method-chain form of `receiver.apply(call)`, or None when it has no exact equivalent."""
    bound = _arguments(key, call)
    if bound is None:
        return None
    method = DATASET_METHODS[key]
    true = cst.Name("True")
    if method in ("batch", "padded_batch"):
        required = _PARAMETERS[key][: 1 if method == "batch" else 2]
        if any(name not in bound for name in required):
            return None
        args = [_arg(bound[name]) for name in _PARAMETERS[key] if name in bound and name != "padding_values"]
        if "padding_values" in bound:
            args.append(_arg(bound["padding_values"], "padding_values"))
        return _method(receiver, method, args + [_arg(true, "drop_remainder")])
    if method == "map+batch":
        if "map_func" not in bound or "batch_size" not in bound:
            return None
        map_args = [_arg(bound["map_func"])]
        if "num_parallel_calls" in bound:
            map_args.append(_arg(bound["num_parallel_calls"], "num_parallel_calls"))
        elif "num_parallel_batches" in bound:
            map_args.append(_arg(spell("tensorflow.data.AUTOTUNE"), "num_parallel_calls"))
        batch_args = [_arg(bound["batch_size"])]
        if "drop_remainder" in bound:
            batch_args.append(_arg(bound["drop_remainder"], "drop_remainder"))
        return _method(_method(receiver, "map", map_args), "batch", batch_args)
    if method == "interleave":
        if "map_func" not in bound or "cycle_length" not in bound:
            return None
        args = [_arg(bound["map_func"]), _arg(bound["cycle_length"], "cycle_length")]
        if "block_length" in bound:
            args.append(_arg(bound["block_length"], "block_length"))
        args.append(_arg(spell("tensorflow.data.AUTOTUNE"), "num_parallel_calls"))
        sloppy = bound.get("sloppy")
        if sloppy is not None and not _is_literal(sloppy, "False"):
            deterministic = cst.Name("False") if _is_literal(sloppy, "True") else cst.UnaryOperation(
                operator=cst.Not(), expression=sloppy.with_changes(
                    lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if not sloppy.lpar else sloppy)
            args.append(_arg(deterministic, "deterministic"))
        return _method(receiver, "interleave", args)
    if method == "shuffle+repeat":
        if "buffer_size" not in bound:
            return None
        shuffle_args = [_arg(bound["buffer_size"])]
        if "seed" in bound:
            shuffle_args.append(_arg(bound["seed"], "seed"))
        repeat_args = [_arg(bound["count"])] if "count" in bound else []
        return _method(_method(receiver, "shuffle", shuffle_args), "repeat", repeat_args)
    return None


def apply_target(node: cst.Call, qualified_names: Callable[[cst.CSTNode], set[str]]) -> tuple[str, cst.Call] | None:
    """(contrib.data key, inner call) when `node` is `something.apply(contrib_fn(...))`."""
    if not (isinstance(node.func, cst.Attribute) and node.func.attr.value == "apply" and len(node.args) == 1
            and node.args[0].keyword is None and not node.args[0].star
            and isinstance(node.args[0].value, cst.Call)):
        return None
    inner = node.args[0].value
    if dotted_name(inner.func) is None:
        return None
    keys = {canonical(name) for name in qualified_names(inner.func)}
    if len(keys) != 1:
        return None
    key = keys.pop()
    return (key, inner) if key in DATASET_METHODS else None


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    found = apply_target(original_node, rewrite.import_names)
    if found is None:
        return None
    key, original_inner = found
    inner = updated_node.args[0].value
    rewritten = rewrite_apply(updated_node.func.value, key, inner, rewrite.spell)
    if rewritten is None:
        return None
    rewrite.consume(original_inner.func)  # its import may now be unused
    return rewritten.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def claimed_by_call(rewrite, node: cst.Call) -> tuple[cst.CSTNode, ...]:
    """The contrib function of a `ds.apply(contrib_fn(...))` this codemod rewrites (not a finding)."""
    found = apply_target(node, rewrite.import_names)
    if found is not None:
        key, inner = found
        if rewrite_apply(node.func.value, key, inner, lambda target: cst.Name("x")) is not None:
            return (inner.func,)
    return ()


CODEMOD = Codemod(
    name="ContribDataApplyToMethods",
    description="Replace ds.apply(tf.contrib.data.X(...)) by the equivalent Dataset method chain.",
    order=10,
    leave_call=leave_call,
    claimed_by_call=claimed_by_call,
    structural_keys=frozenset(DATASET_METHODS),
    reach=watched_names_only,
)
