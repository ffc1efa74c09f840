"""The batch sizes TPUEstimator gave input_fn and model_fn (docs/semantics.md section 2).

`params['batch_size']` is the global batch G on the CPU path. With R TPU cores model_fn sees
G/R rows; input_fn builds G with PER_HOST_V1 (the default: each replica then gets a contiguous
slice) and G/R with PER_HOST_V2 (replica k gets the k-th consecutive batch). G must divide by R.
"""

from __future__ import annotations

from estimator_bridge.config import InputPipelineConfig


def batch_sizes(*, global_batch_size, num_replicas, tpu_semantics, deployment_mode):
    """(batch size for input_fn, batch size for model_fn), as TPUEstimator computed them."""
    if global_batch_size is None:
        return None, None
    if not tpu_semantics:
        return global_batch_size, global_batch_size
    if global_batch_size % num_replicas:
        raise ValueError(
            f"train batch size {global_batch_size} must be divisible by number of replicas "
            f"{num_replicas}: the global batch is split evenly across the TPU cores. Use a "
            f"batch size that is a multiple of {num_replicas} (e.g. "
            f"{(global_batch_size // num_replicas + 1) * num_replicas}) or change num_shards.")
    per_replica = global_batch_size // num_replicas
    if deployment_mode == InputPipelineConfig.PER_HOST_V2:
        return per_replica, per_replica
    return global_batch_size, per_replica
