"""A scaffold_fn's `init_op` / `init_fn`: run once, in the build pass's graph, as TF1's Session did.

TF1's `SessionManager.prepare_session` on a model_dir without a checkpoint ran the Scaffold's
`init_op` (by default `global_variables_initializer()`), fed `init_feed_dict`, then called
`init_fn(scaffold, session)`, and every step started from the values that left. Real programs
use it to change the initial weights after the initializers ran (an `init_op` zeroing a head
under `control_dependencies([global_variables_initializer()])`, an `init_fn` running a sparse
mask assigner).

The bridge has no Session in its steps, but its build pass (build.py) builds model_fn in a plain
graph whose variables are TF1 graph variables, and computes their initial values there. So the
init ops run in a `tf.compat.v1.Session` on that graph, once per mode, and what the variables hold
afterwards becomes their initial values (used on a fresh model_dir, replaced by a restored
checkpoint, as in TF1). Each variable's initializer is fed the value the bridge would have given
it, warm starts included (`init_from_checkpoint` and `warm_start_from` made TF1's initializers
read the checkpoint, so `global_variables_initializer()` inside an init_op loaded them before the
init_op's own assignments); the caller then does not warm-start again (it would undo an init_op's
change of a warm-started variable).
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1


def _initializer_input(variable):
    """The tensor a graph variable's initializer assigns (what TF1 fed from a checkpoint)."""
    initializer = variable.initializer
    if initializer is None or len(initializer.inputs) < 2:
        return None
    return initializer.inputs[1]


def run(scaffold, graph_variables: dict, initial_values: dict) -> dict:
    """Runs the scaffold's init_op (or TF1's default) and init_fn on the build graph.

    Args:
      scaffold: the `tf.compat.v1.train.Scaffold` scaffold_fn returned, built in the current
        (build) graph.
      graph_variables: {cache key: the build graph's variable}.
      initial_values: {cache key: numpy value} each variable starts from before the init op
        (its initializer's value, warm starts applied).

    Returns:
      {cache key: numpy value} of every variable after init_op and init_fn.

    Raises:
      RuntimeError: as TF1's SessionManager, when the init op and init_fn leave a variable
        uninitialised ("Init operations did not make model ready"), naming them.
    """
    graph = tf1.get_default_graph()
    init_op = scaffold._init_op  # pylint: disable=protected-access  (as Scaffold.finalize read)
    if init_op is None:
        init_op = tf1.global_variables_initializer()
    feeds = {}
    for key, variable in graph_variables.items():
        target = _initializer_input(variable)
        if target is not None and key in initial_values:
            feeds[target] = np.asarray(initial_values[key]).astype(
                variable.dtype.base_dtype.as_numpy_dtype)
    feeds.update(scaffold._init_feed_dict or {})  # pylint: disable=protected-access
    keys = list(graph_variables)
    with tf1.Session(graph=graph) as session:
        session.run(init_op, feed_dict=feeds)
        init_fn = scaffold._init_fn  # pylint: disable=protected-access  (init_fn(self, session))
        if init_fn is not None:
            init_fn(session)
        try:
            values = session.run([graph_variables[key].read_value() for key in keys])
        except tf.errors.FailedPreconditionError as error:
            raise RuntimeError(
                "Init operations did not make model ready: the Scaffold's init_op "
                f"({getattr(init_op, 'name', init_op)}) and init_fn left variables "
                f"uninitialised ({error.message.splitlines()[0]}). As in TF1, an init_op replaces "
                "global_variables_initializer(): include it, e.g. under "
                "tf.control_dependencies([tf.compat.v1.global_variables_initializer()]).") from error
    return dict(zip(keys, values))
