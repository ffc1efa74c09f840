"""The lookup shared by the numpy/pandas `input_fn` codemods: rewrite only calls whose batches come in order.

TF 1.15's numpy_input_fn and pandas_input_fn fed a queue; with `shuffle` the literal False and one
thread (`num_threads` absent or the literal 1) the queue gave the rows in order, which tf.data
reproduces exactly; numpy_input_fn's shuffling on one thread the bridge serves as well (the literal
True). Any other call (a shuffle held in a variable, several threads, `*args`/`**kwargs`) is left to
its MIG304 finding.
"""

from __future__ import annotations

from typing import Callable

import libcst as cst

from migrate.codemods.call_arguments import bind_arguments
from migrate.resolve import Match
from migrate.tables.entries import Replacement


def _arguments(call, signature: tuple[str, ...]) -> dict[str, cst.BaseExpression] | None:
    """The call's arguments by TF 1.15's parameter name; None when one cannot be placed."""
    args = getattr(call, "args", ())
    if not all(isinstance(arg, cst.Arg) for arg in args):
        return None
    bound = bind_arguments(args, signature)
    return None if bound is None else {name: arg.value for name, arg in bound.items()}


def _in_order(passed: dict[str, cst.BaseExpression], shuffles: tuple[str, ...]) -> bool:
    shuffle, threads = passed.get("shuffle"), passed.get("num_threads")
    if not (isinstance(shuffle, cst.Name) and shuffle.value in shuffles):
        return False
    return threads is None or (isinstance(threads, cst.Integer) and threads.evaluated_value == 1)


def ordered_lookup(keys: tuple[str, ...], signature: tuple[str, ...], target: Replacement,
                   shuffles: tuple[str, ...] = ("False",)) -> Callable:
    """A codemod lookup: `target` for a call to one of `keys` (TF 1.15's `signature`) on one thread whose
    `shuffle` is one of the literals `shuffles` (the ones `target` serves as TF 1.15 did)."""

    def lookup(canonical_name: str, raw_name: str, call) -> Match | None:
        if canonical_name not in keys or not isinstance(call, cst.Call):
            return None
        passed = _arguments(call, signature)
        if passed is None or not _in_order(passed, shuffles):
            return None
        return Match(canonical_name, target, 0)

    return lookup
