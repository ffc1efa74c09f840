"""How a Replacement carries one call's arguments over to its target.

A target often takes the first arguments in the same order and then differs:
`tf.contrib.summary.scalar(name, tensor, family, step)` vs `tf.summary.scalar(name, data, step)`,
`MirroredStrategy(devices, num_gpus, ...)` vs `(devices, cross_device_ops)`. Passing a third
positional argument on unchanged would silently give it another meaning. So for an entry with
`positional=N`, positional arguments from index N on become keywords named after the TF1
parameters in `signature`; then `rename_kwargs` applies, and a keyword in `unsupported_kwargs` (or
an argument that cannot be placed: `*args` past N, more arguments than the TF1 signature) leaves
the call unchanged for a finding.

Only `.keyword` and `.star` of the arguments are read, so the pre-filter's call shapes work too.
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from migrate.tables.entries import Replacement

UNPLACEABLE = "*args"


def passed_keywords(entry: Replacement, args: Sequence) -> list[str]:
    """The keyword names the call passes once its late positional arguments are keywords."""
    names = []
    for index, arg in enumerate(args):
        if arg.keyword is not None:
            names.append(arg.keyword.value)
        elif entry.positional is None or arg.star == "**":
            continue
        elif arg.star == "*" or index >= len(entry.signature) and index >= entry.positional:
            names.append(UNPLACEABLE)
        elif index >= entry.positional:
            names.append(entry.signature[index])
    return names


def unsupported_keywords(entry: Replacement, call) -> list[str]:
    """Arguments of `call` that `entry` cannot translate (the call is then left for a human)."""
    if call is None:
        return []
    return [name for name in passed_keywords(entry, call.args)
            if name in entry.unsupported_kwargs or name == UNPLACEABLE]


def _as_keyword(arg: cst.Arg, name: str) -> cst.Arg:
    no_space = cst.SimpleWhitespace("")
    return arg.with_changes(keyword=cst.Name(name), equal=cst.AssignEqual(whitespace_before=no_space,
                                                                           whitespace_after=no_space))


def translate(entry: Replacement, args: Sequence[cst.Arg]) -> list[cst.Arg]:
    """`args` for the target: late positionals as keywords, keywords renamed, defaults for `f()`."""
    args = list(args)
    if entry.positional is not None:
        args = [_as_keyword(arg, entry.signature[index])
                if arg.keyword is None and not arg.star and index >= entry.positional else arg
                for index, arg in enumerate(args)]
    if entry.rename_kwargs:
        args = [arg.with_changes(keyword=cst.Name(entry.rename_kwargs[arg.keyword.value]))
                if arg.keyword is not None and arg.keyword.value in entry.rename_kwargs else arg
                for arg in args]
    if entry.default_args and not args:
        args = [cst.Arg(cst.parse_expression(text)) for text in entry.default_args]
    return args


def argument(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    """The value passed for a parameter at `position` or by `keyword`; None when absent or
    when a `*args`/`**kwargs` makes it unknowable."""
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if (arg.keyword is None and index == position) or (
                arg.keyword is not None and arg.keyword.value == keyword):
            return arg.value
    return None


def bind_arguments(args: Sequence, signature: Sequence[str]) -> dict[str, cst.Arg] | None:
    """{parameter name: the Arg passed for it}, in the call's order, for a rewrite to a function
    with other parameters; None when an argument cannot be placed (`*args`/`**kwargs`, more
    positionals than `signature` has, an unknown keyword). Reads only `.keyword`, `.star` (and
    keeps the args), so the pre-filter's call shapes bind too."""
    bound: dict[str, cst.Arg] = {}
    for position, arg in enumerate(args):
        if arg.star:
            return None
        if arg.keyword is None:
            if position >= len(signature):
                return None
            bound[signature[position]] = arg
        elif arg.keyword.value in signature:
            bound[arg.keyword.value] = arg
        else:
            return None
    return bound
