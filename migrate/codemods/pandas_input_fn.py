"""`tf.estimator.inputs.pandas_input_fn(..., shuffle=False)` -> estimator_bridge.inputs.pandas_input_fn.

TF 1.15's pandas_input_fn with `shuffle=False` on one thread gave the batches of numpy_input_fn on
the frame's columns (docs/results/2026-11-28-pandas-input-fn.md); the bridge's pandas_input_fn is
that spelling, deciding at run time what the codemod cannot know (labels None, a Series or a
DataFrame) and keeping TF 1.15's checks (the labels' index, `target_column`). The call keeps its
arguments, evaluated once. Rewritten only when `shuffle` is the literal False (by keyword or fifth
position) and `num_threads` absent or the literal 1; any other call (shuffle=True, contrib.learn's
default shuffle, a shuffle held in a variable, several threads, `*args`/`**kwargs`) keeps its
MIG304 finding.
"""

from __future__ import annotations

from migrate.codemods.ordered_input_fn import ordered_lookup
from migrate.codemods.registry import Codemod
from migrate.tables.entries import Replacement

# TF 1.15's spellings (canonical names); contrib.learn's wrapper (default shuffle=True) passed its
# arguments to the core one.
KEYS = ("tensorflow.estimator.inputs.pandas_input_fn", "tensorflow.estimator.inputs.pandas_io.pandas_input_fn",
        "tensorflow.contrib.learn.io.pandas_input_fn")
TARGET = Replacement("estimator_bridge.inputs.pandas_input_fn")
# TF 1.15's parameters, in order.
SIGNATURE = ("x", "y", "batch_size", "num_epochs", "shuffle", "queue_capacity", "num_threads", "target_column")


lookup = ordered_lookup(KEYS, SIGNATURE, TARGET)


CODEMOD = Codemod(
    name="PandasInputFn",
    description="pandas_input_fn(..., shuffle=False) on one thread -> estimator_bridge.inputs.pandas_input_fn.",
    order=21,
    lookup=lookup,
)
