"""A v1 train_op that an EVAL/PREDICT model_fn builds on several replicas: a no-op, as it never runs.

TF1 code often builds `optimizer.minimize(...)` in every mode and returns the train_op only in
TRAIN (or returns it in EVAL too, where TPUEstimator ignored it): in TF1's graph the op existed
and never ran, because evaluation fetched only the loss and the metrics. The bridge builds the
eval and predict replica steps as pruned TF1 graphs (`graph_step.call_pruned`), so such a
train_op is pruned away too, but it must first be built: on 2+ replicas a v1 optimizer's
`apply_gradients` sums gradients with `merge_call` (and the bridge's CrossShardOptimizer with
`all_reduce`), which TF refuses inside a graph built within the replica function ("`merge_call`
called while defining a new graph or a tf.function"). Found with
tests/estimator_bridge/real_patterns/layers_by_name.py's pattern at use_tpu=True, num_shards=2
(docs/core.md).

While a pruned step is built on several replicas, `apply_gradients` of a v1 optimizer (and of
the CrossShardOptimizer) returns a `no_op` named like the train op instead: nothing that could
run is lost, since the step is pruned to its fetches, and a model_fn that puts the train_op under
`control_dependencies` still gets an Operation. Its slot variables are not created in that graph
(TF1 created them and never read them in evaluation). One replica keeps the full build, which
works there.
"""

from __future__ import annotations

import contextlib
import threading

import tensorflow as tf

_lock = threading.Lock()
_depth = 0


@contextlib.contextmanager
def building_pruned_step():
    """Within: a pruned (eval/predict) replica step is being built, in any replica thread."""
    global _depth
    _install()
    with _lock:
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1


def stand_in(name=None):
    """The no-op that stands for a train_op here, or None where the real one must be built."""
    if not _depth:
        return None
    context = tf.distribute.get_replica_context()
    if context is None or context.num_replicas_in_sync < 2:
        return None
    return tf.no_op(name=name or "train_op_not_run_in_this_mode")


def _install() -> None:
    optimizer_class = tf.compat.v1.train.Optimizer
    original = optimizer_class.apply_gradients
    if getattr(original, "_estimator_bridge_original", None) is not None:
        return

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        op = stand_in(name)
        if op is not None:
            return op
        return original(self, grads_and_vars, global_step=global_step, name=name)

    apply_gradients.__doc__ = original.__doc__
    apply_gradients._estimator_bridge_original = original
    optimizer_class.apply_gradients = apply_gradients
