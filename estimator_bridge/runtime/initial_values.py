"""Initial values of the model's variables computed as TF 1.15 computed them: in a graph.

Why: TF1 ran the Scaffold's init op (every variable's initializer in one `Session.run`) in the
graph model_fn built. Evaluating the same initializers eagerly differs (measured against
TF 1.15, tests/estimator_bridge/runtime/test_initial_values.py):

* `constant_initializer(value)` / `tf.constant(value, shape=...)` with fewer values than the
  variable has elements: a graph fills the rest with the last value, eager raises "Eager
  execution of tf.constant with unsupported shape" (also per part of a partitioned variable);
* random initializers with an op-level seed: each graph op draws its own first numbers, so two
  variables (or the parts of a partitioned variable) with the same seed start equal; eager
  caches one kernel per seed, and the second draw continues its stream;
* a random tensor as initial value (`tf.Variable(tf.random_normal(shape, seed=1))`): a graph
  tensor without a static value, which eager code cannot compute at all.

So the build pass (build.py) runs the recorded variables' initializers in its throwaway graph
(graph-level seed = RunConfig.tf_random_seed, as TF1 set it) and the cache creates each
variable from the fetched value. Initializers that cannot run there (they read a placeholder,
i.e. the input batch) fall back to the eager evaluation and its error message.
"""

from __future__ import annotations

import logging

import tensorflow as tf

logger = logging.getLogger("estimator_bridge")


def _fetch(session, variables) -> list:
    session.run([variable.initializer for variable in variables])
    return session.run(list(variables))


def evaluate_in_graph(graph: tf.Graph, variables: dict) -> dict:
    """{key: numpy initial value} of `variables` ({key: graph variable of `graph`}).

    All initializers run in one `Session.run`, as TF1's init op did; when that fails, each
    variable is tried on its own and the ones that still fail are left out (the caller then
    evaluates them eagerly).
    """
    if not variables:
        return {}
    keys = list(variables)
    with tf.compat.v1.Session(graph=graph) as session:
        try:
            return dict(zip(keys, _fetch(session, [variables[key] for key in keys])))
        except (tf.errors.OpError, ValueError, TypeError) as error:
            logger.debug("initial values: one init run failed (%s); per variable", error)
        values = {}
        for key in keys:
            try:
                values[key] = _fetch(session, [variables[key]])[0]
            except (tf.errors.OpError, ValueError, TypeError) as error:
                logger.debug("initial value of %s left to eager evaluation: %s", key, error)
        return values
