"""`tf.estimator.inputs.numpy_input_fn(..., shuffle=False)` -> estimator_bridge.inputs.numpy_input_fn.

Only calls whose batches tf.data reproduces exactly are rewritten: `shuffle` passed as the literal
False (by keyword or fifth position) and `num_threads` absent or the literal 1 (TF 1.15's queue then
gave the rows in order; estimator_bridge/inputs.py). Any other call (shuffle=True, a shuffle
held in a variable, several threads, `*args`/`**kwargs`) keeps its MIG304 finding.
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.call_arguments import bind_arguments
from migrate.codemods.registry import Codemod
from migrate.resolve import Match
from migrate.tables.entries import Replacement

# TF 1.15's spellings (canonical names); contrib.learn's wrapper passed its arguments to the core one.
KEYS = ("tensorflow.estimator.inputs.numpy_input_fn", "tensorflow.estimator.inputs.numpy_io.numpy_input_fn",
        "tensorflow.contrib.learn.io.numpy_input_fn")
TARGET = Replacement("estimator_bridge.inputs.numpy_input_fn")
# TF 1.15's parameters, in order.
SIGNATURE = ("x", "y", "batch_size", "num_epochs", "shuffle", "queue_capacity", "num_threads")


def _arguments(call) -> dict[str, cst.BaseExpression] | None:
    """The call's arguments by TF 1.15's parameter name; None when one cannot be placed."""
    args = getattr(call, "args", ())
    if not all(isinstance(arg, cst.Arg) for arg in args):
        return None
    bound = bind_arguments(args, SIGNATURE)
    return None if bound is None else {name: arg.value for name, arg in bound.items()}


def lookup(canonical_name: str, raw_name: str, call) -> Match | None:
    if canonical_name not in KEYS or not isinstance(call, cst.Call):
        return None
    passed = _arguments(call)
    if passed is None:
        return None
    shuffle, threads = passed.get("shuffle"), passed.get("num_threads")
    if not (isinstance(shuffle, cst.Name) and shuffle.value == "False"):
        return None
    if threads is not None and not (isinstance(threads, cst.Integer) and threads.evaluated_value == 1):
        return None
    return Match(canonical_name, TARGET, 0)


CODEMOD = Codemod(
    name="NumpyInputFn",
    description="numpy_input_fn(..., shuffle=False) on one thread -> estimator_bridge.inputs.numpy_input_fn.",
    order=21,
    lookup=lookup,
)
