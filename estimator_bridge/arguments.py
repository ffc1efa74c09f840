"""Legacy arguments the bridge cannot honour: each refused with why and what to do instead.

Nothing a legacy program passes may be accepted and then silently ignored (issue 16). Every
argument of the public constructors is either implemented (docs/arguments.md says where and
which test proves it) or listed here with the values that behave as TF 1.15 did (usually the
default) and the reason other values cannot. `check(owner, name, value)` raises
`NotImplementedError` naming the argument, the value, the reason and the fix.

The table is data; the checks are called where the arguments arrive (config.py, estimator.py,
spec.py, contract/model.py, hooks.py).
"""

from __future__ import annotations

import dataclasses
from typing import Callable


@dataclasses.dataclass(frozen=True)
class Unsupported:
    """An argument whose non-default values the bridge cannot honour.

    Attributes:
      accepts: `value -> bool`, True for the values that behave exactly as in TF 1.15.
      why: what the argument did in TF 1.15 and why the bridge cannot do it.
      fix: what to do instead.
    """

    accepts: Callable[[object], bool]
    why: str
    fix: str


def _is_none(value) -> bool:
    return value is None


def _none_or(*allowed):
    return lambda value: value is None or any(value == item for item in allowed)


def _batch_first(value) -> bool:
    """batch_axis None, or every axis 0 (nested as features/labels were): the split TF 1.15 made
    without it and the one the bridge makes (programs pass (0, 0) unless their input is
    transposed)."""
    if value is None:
        return True
    if isinstance(value, (list, tuple)):
        return all(_batch_first(item) for item in value)
    if isinstance(value, dict):
        return all(_batch_first(item) for item in value.values())
    return isinstance(value, int) and not isinstance(value, bool) and value == 0


UNSUPPORTED = {
    # ---- TPUConfig --------------------------------------------------------------------------
    ("TPUConfig", "num_cores_per_replica"): Unsupported(
        _none_or(1),
        "model parallelism (several TPU cores per replica, laid out by a TPU device "
        "assignment) has no tf.distribute equivalent the bridge can emulate; every replica runs "
        "on one core or device",
        "drop num_cores_per_replica (or pass 1) and run data parallel over num_shards replicas"),
    ("TPUConfig", "input_partition_dims"): Unsupported(
        _is_none,
        "spatial partitioning splits each input tensor across the cores of a model-parallel "
        "replica, which needs num_cores_per_replica > 1 (not supported)",
        "drop input_partition_dims; each replica then receives whole examples"),
    ("TPUConfig", "tpu_job_name"): Unsupported(
        _is_none,
        "the job of the TPU workers is taken from the cluster resolver by tf.distribute."
        "TPUStrategy; a name given here would not be used",
        "drop tpu_job_name and pass RunConfig(cluster=TPUClusterResolver(...)) naming the TPU"),
    ("TPUConfig", "experimental_host_call_every_n_steps"): Unsupported(
        _none_or(1),
        "the bridge runs host_call after every training step, as TPUEstimator's default did",
        "drop experimental_host_call_every_n_steps, or call the summary ops every n steps "
        "yourself inside host_call (tf.summary.record_if(global_step % n == 0))"),
    # ---- RunConfig --------------------------------------------------------------------------
    ("RunConfig", "device_fn"): Unsupported(
        _is_none,
        "device_fn placed each op of a TF1 graph; the bridge traces the model into tf.functions "
        "placed by the tf.distribute strategy",
        "drop device_fn; choose devices with TPUConfig(num_shards=...) or train_distribute"),
    ("RunConfig", "protocol"): Unsupported(
        _none_or("grpc"),
        "only gRPC is used between workers (MultiWorkerMirroredStrategy from TF_CONFIG)",
        "drop protocol (or pass 'grpc')"),
    ("RunConfig", "experimental_distribute"): Unsupported(
        _is_none,
        "DistributeConfig (remote_cluster, separate train/eval strategies) configured TF1's "
        "distribute coordinator, which does not exist on current TensorFlow",
        "drop experimental_distribute and pass train_distribute=strategy"),
    ("RunConfig", "experimental_max_worker_delay_secs"): Unsupported(
        _is_none,
        "TF1 delayed the start of non-chief workers of parameter-server training; the bridge's "
        "multi-worker training is synchronous (all workers start together)",
        "drop experimental_max_worker_delay_secs"),
    ("RunConfig", "session_creation_timeout_secs"): Unsupported(
        _none_or(7200),
        "the bridge creates no MonitoredSession whose creation could time out (a TPU that "
        "cannot be reached fails within 10 s instead)",
        "drop session_creation_timeout_secs"),
    ("RunConfig", "keep_checkpoint_every_n_hours"): Unsupported(
        _none_or(10000),
        "TF1's Saver kept one extra checkpoint every N hours beyond keep_checkpoint_max; the "
        "bridge keeps exactly the newest keep_checkpoint_max",
        "drop keep_checkpoint_every_n_hours, or pass keep_checkpoint_max=None to keep every "
        "checkpoint"),
    # ---- TPUEstimator -----------------------------------------------------------------------
    ("TPUEstimator", "batch_axis"): Unsupported(
        _batch_first,
        "batch_axis chose, per feature, the axis TPUEstimator's PER_HOST_V1 input split across "
        "cores; the bridge always splits the batch on axis 0",
        "drop batch_axis and put the batch dimension first (tf.transpose in input_fn)"),
    ("TPUEstimator", "embedding_config_spec"): Unsupported(
        _is_none,
        "TPU embedding tables (tpu_embedding) run on the TPU's embedding engine, which "
        "tf.distribute does not emulate",
        "drop embedding_config_spec and use tf.compat.v1.nn.embedding_lookup on a variable "
        "created in model_fn"),
    # ---- hooks ------------------------------------------------------------------------------
    ("CheckpointSaverHook", "saver"): Unsupported(
        _is_none,
        "a Saver (var_list, sharding, max_to_keep) needs a Session; the bridge writes every "
        "model variable under its TF1 name",
        "drop saver= (the checkpoint holds every model variable)"),
    ("CheckpointSaverHook", "scaffold"): Unsupported(
        _is_none,
        "the scaffold's saver needs a Session; the bridge writes every model variable under "
        "its TF1 name",
        "drop scaffold="),
    ("CheckpointSaverHook", "checkpoint_basename"): Unsupported(
        _none_or("model.ckpt"),
        "the bridge names checkpoints model.ckpt-<step>, the name TF1's Estimator and the "
        "bridge's restore look for",
        "drop checkpoint_basename"),
}


def check(owner: str, name: str, value) -> None:
    """Raises NotImplementedError if `owner(name=value)` cannot behave as in TF 1.15."""
    entry = UNSUPPORTED.get((owner, name))
    if entry is not None and not entry.accepts(value):
        raise NotImplementedError(
            f"{owner}({name}={value!r}) is not supported by estimator_bridge: {entry.why}. "
            f"To run: {entry.fix}.")


def check_all(owner: str, values: dict) -> None:
    """`check` for every `name: value` of `values`."""
    for name, value in values.items():
        check(owner, name, value)
