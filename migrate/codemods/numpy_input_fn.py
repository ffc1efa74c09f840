"""`tf.estimator.inputs.numpy_input_fn(..., shuffle=False|True)` -> estimator_bridge.inputs.numpy_input_fn.

Rewritten: `shuffle` passed as the literal False or True (by keyword or fifth position) and
`num_threads` absent or the literal 1. With False TF 1.15's queue gave the rows in order, which the
bridge repeats exactly; with True the bridge shuffles as TF 1.15's one feeder and its shuffling queue
did (a random start, epochs mixed in a `queue_capacity` buffer: estimator_bridge/inputs.py, measured
against TF 1.15 by tests/estimator_bridge/test_numpy_input_fn.py). Any other call (a shuffle held in
a variable, several threads, `*args`/`**kwargs`) keeps its MIG304 finding.
"""

from __future__ import annotations

from migrate.codemods.ordered_input_fn import ordered_lookup
from migrate.codemods.registry import Codemod
from migrate.tables.entries import Replacement

# TF 1.15's spellings (canonical names); contrib.learn's wrapper passed its arguments to the core one.
KEYS = ("tensorflow.estimator.inputs.numpy_input_fn", "tensorflow.estimator.inputs.numpy_io.numpy_input_fn",
        "tensorflow.contrib.learn.io.numpy_input_fn")
TARGET = Replacement("estimator_bridge.inputs.numpy_input_fn")
# TF 1.15's parameters, in order.
SIGNATURE = ("x", "y", "batch_size", "num_epochs", "shuffle", "queue_capacity", "num_threads")


lookup = ordered_lookup(KEYS, SIGNATURE, TARGET, shuffles=("False", "True"))


CODEMOD = Codemod(
    name="NumpyInputFn",
    description="numpy_input_fn(..., shuffle=False|True) on one thread -> estimator_bridge.inputs.numpy_input_fn.",
    order=21,
    lookup=lookup,
)
