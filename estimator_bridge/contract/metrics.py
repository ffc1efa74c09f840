"""eval_metrics and host_call: tensors gathered from the replicas, fn run once on the host.

TPUEstimator outfed each replica's tensors, concatenated them on the host in replica order along
axis 0 and called `metric_fn` / the host_call fn once per step (docs/semantics.md section 5). v1
metrics need a replica context and plain variables, so metric_fn runs in the main thread under a
host-only variable cache of CPU variables (docs/architecture.md, "Metrics on the host"); the final
values come from calling metric_fn once more on zero-length inputs, whose update ops add nothing,
and reading its value tensors: this works whatever order a metric builds its ops in.
"""

from __future__ import annotations

import tensorflow as tf

from estimator_bridge.contract.calling import zeros_like_spec


def call_with_tensors(fn, tensors):
    """fn(*list) or fn(**dict), as TPUEstimator called metric_fn and host_call fns."""
    if isinstance(tensors, dict):
        return fn(**tensors)
    return fn(*tensors)


def gather_replicas(strategy, per_replica_tensors, *, tpu_semantics: bool, name: str):
    """Concatenates each tensor's replica values in replica order along axis 0.

    Raises:
      RuntimeError: with TPU semantics, a rank-0 tensor (TPU's outfeed needs a batch axis).
    """
    def gather(value):
        parts = strategy.experimental_local_results(value)
        if tpu_semantics and parts[0].shape.rank == 0:
            raise RuntimeError(
                "All tensors outfed from TPU should preserve batch size dimension, but got "
                f"scalar {parts[0]} in {name}. Reshape it to [1], e.g. tf.reshape(x, [1]); it "
                "becomes [num_replicas] after the replicas are concatenated.")
        if len(parts) == 1:
            return parts[0]
        with tf.device("/cpu:0"):
            return tf.concat(parts, axis=0)
    return tf.nest.map_structure(gather, per_replica_tensors)


def spec_of(tensors):
    """TensorSpecs of a nest of tensors (kept at trace time for the zero-length final call)."""
    return tf.nest.map_structure(lambda t: tf.TensorSpec(t.shape, t.dtype), tensors)


def zero_length_inputs(specs):
    return tf.nest.map_structure(zeros_like_spec, specs)


def check_metric_dict(metrics, source):
    """metric_fn/eval_metric_ops must give {name: (value, update_op)}; loss/global_step reserved."""
    if not isinstance(metrics, dict):
        raise TypeError(f"{source} must return a dict {{name: (value, update_op)}}, got "
                        f"{type(metrics).__name__} {metrics!r:.200}.")
    for reserved in ("loss", "global_step"):
        if reserved in metrics:
            raise ValueError(
                f"Metric with name \"{reserved}\" is not allowed, because Estimator already "
                f"defines a default metric with the same name. Rename the metric {reserved!r} "
                f"returned by {source}.")
    for name, metric in metrics.items():
        if not isinstance(metric, (tuple, list)) or len(metric) != 2:
            raise TypeError(f"{source} returned {metric!r:.200} for metric {name!r}; each metric "
                            "must be a (value, update_op) pair, e.g. tf.compat.v1.metrics.mean(x).")
    return metrics


def update_ops(metrics):
    return [metric[1] for metric in metrics.values()]


def value_tensors(metrics):
    return {name: metric[0] for name, metric in metrics.items()}
