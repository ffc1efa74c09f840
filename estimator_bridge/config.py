"""RunConfig, TPUConfig and InputPipelineConfig with the legacy signatures, validated at birth.

The fields and defaults are those of TF 1.15's `tf.contrib.tpu.RunConfig` / `TPUConfig`
(docs/semantics.md section 2); the error messages are the legacy ones where legacy code
might test for them, otherwise they name the field, the value and the fix.
"""

from __future__ import annotations

import collections
import functools
import re

from estimator_bridge import arguments, session_config as session_config_lib
from estimator_bridge.contract import cluster as cluster_lib

# Sentinel for "not given", so that save_checkpoints_secs can default to 600 only when neither
# save_checkpoints_steps nor save_checkpoints_secs was passed (TF1 RunConfig behaviour).
_USE_DEFAULT = object()

DEFAULT_SAVE_CHECKPOINTS_SECS = 600


class InputPipelineConfig:
    """How input_fn is deployed (TPUConfig.per_host_input_for_training); values as in TF 1.15."""

    PER_SHARD_V1 = 1
    PER_HOST_V1 = 2
    PER_HOST_V2 = 3
    BROADCAST = 4
    SLICED = 5


_ITERATIONS_PER_LOOP_PATTERN = re.compile(r"^([1-9]\d*)([smh])?$")
_SECONDS_PER_UNIT = {"s": 1, "m": 60, "h": 3600}

# Steps per traced loop for a time-based iterations_per_loop ('30s'): TPUEstimator sized such
# loops adaptively on a TPU; 100 steps is a cadence of the same order on CPU/GPU.
TIME_BASED_LOOP_STEPS = 100


class IterationsPerLoop(collections.namedtuple("IterationsPerLoop", ["value", "unit"])):
    """TPUConfig.iterations_per_loop parsed: (steps, 'count') or (seconds, 'seconds')."""

    __slots__ = ()

    @property
    def steps_per_loop(self) -> int:
        """The steps one traced call runs (TIME_BASED_LOOP_STEPS for a time-based value)."""
        return self.value if self.unit == "count" else TIME_BASED_LOOP_STEPS


def parse_iterations_per_loop(value) -> IterationsPerLoop:
    """`2` -> (2, 'count'); `'30s'`/`'2m'`/`'1h'` -> seconds (unit 'seconds'), as TF 1.15 parses it."""
    match = _ITERATIONS_PER_LOOP_PATTERN.match(str(value))
    if match is None:
        raise ValueError(
            "Invalid TPUConfig `iterations_per_loop` value. Value must be positive integer value or "
            "properly formatted time string: e.g. 10, 30s, 2m, 1h; got {!r}.".format(value))
    number, unit = int(match.group(1)), match.group(2)
    if unit is None:
        return IterationsPerLoop(number, "count")
    return IterationsPerLoop(number * _SECONDS_PER_UNIT[unit], "seconds")


_TPUConfigFields = collections.namedtuple("TPUConfig", [
    "iterations_per_loop",
    "num_shards",
    "num_cores_per_replica",
    "per_host_input_for_training",
    "tpu_job_name",
    "initial_infeed_sleep_secs",
    "input_partition_dims",
    "eval_training_input_configuration",
    "experimental_host_call_every_n_steps",
])


class TPUConfig(_TPUConfigFields):
    """TPU-related configuration (a frozen namedtuple, like TF 1.15's).

    `iterations_per_loop` is the number of steps run by one traced call, `num_shards` the
    number of replicas to emulate when `use_tpu=True` (see `estimator_bridge.runtime.distribute`),
    `per_host_input_for_training` selects how input_fn is deployed and
    `initial_infeed_sleep_secs` delays train()'s first loop. The other fields accept their
    TF 1.15 defaults; values the bridge cannot honour (model parallelism, spatial
    partitioning, ...) raise NotImplementedError (`estimator_bridge.arguments`,
    docs/arguments.md).
    """

    def __new__(cls, iterations_per_loop=2, num_shards=None, num_cores_per_replica=None,
                per_host_input_for_training=True, tpu_job_name=None,
                initial_infeed_sleep_secs=None, input_partition_dims=None,
                eval_training_input_configuration=InputPipelineConfig.PER_HOST_V1,
                experimental_host_call_every_n_steps=1):
        iterations = parse_iterations_per_loop(iterations_per_loop)
        if num_shards is not None and (not isinstance(num_shards, int) or isinstance(num_shards, bool)
                                       or num_shards < 1):
            raise ValueError(
                f"TPUConfig `num_shards` ({num_shards!r}) must be a positive integer: the number "
                "of TPU cores (replicas) to run on, e.g. TPUConfig(num_shards=8).")
        if num_cores_per_replica is not None and num_cores_per_replica not in (
                1, 2, 4, 8, 16, 32, 64, 128):
            raise ValueError(
                f"TPUConfig `num_cores_per_replica` ({num_cores_per_replica!r}) must be one of "
                "1, 2, 4, 8, 16, 32, 64, 128.")
        if per_host_input_for_training not in (
                True, False, InputPipelineConfig.PER_SHARD_V1, InputPipelineConfig.PER_HOST_V1,
                InputPipelineConfig.PER_HOST_V2, InputPipelineConfig.BROADCAST):
            raise ValueError(
                f"TPUConfig `per_host_input_for_training` ({per_host_input_for_training!r}) must "
                "be True, False or an InputPipelineConfig value (PER_SHARD_V1, PER_HOST_V1, "
                "PER_HOST_V2, BROADCAST).")
        if eval_training_input_configuration not in (InputPipelineConfig.PER_HOST_V1,
                                                     InputPipelineConfig.SLICED):
            raise ValueError(
                "TPUConfig eval_training_input_configuration must be PER_HOST_V1 or SLICED, got "
                f"{eval_training_input_configuration!r}.")
        if (not isinstance(experimental_host_call_every_n_steps, int)
                or experimental_host_call_every_n_steps < 1):
            raise ValueError(
                "TPUConfig `experimental_host_call_every_n_steps` "
                f"({experimental_host_call_every_n_steps!r}) must be a positive integer.")
        arguments.check_all("TPUConfig", {
            "num_cores_per_replica": num_cores_per_replica,
            "input_partition_dims": input_partition_dims,
            "tpu_job_name": tpu_job_name,
            "eval_training_input_configuration": eval_training_input_configuration,
            "experimental_host_call_every_n_steps": experimental_host_call_every_n_steps})
        config = super().__new__(
            cls, iterations_per_loop, num_shards, num_cores_per_replica,
            per_host_input_for_training, tpu_job_name, initial_infeed_sleep_secs,
            input_partition_dims, eval_training_input_configuration,
            experimental_host_call_every_n_steps)
        config.__dict__["iterations"] = iterations  # parsed once, here (see `iterations`)
        return config

    @functools.cached_property
    def iterations(self) -> IterationsPerLoop:
        """iterations_per_loop parsed, the value every layer reads (set at construction;
        a copy made by namedtuple's `_replace` parses it on first read)."""
        return parse_iterations_per_loop(self.iterations_per_loop)

    @property
    def input_deployment(self) -> int:
        """per_host_input_for_training as an InputPipelineConfig value (True -> PER_HOST_V1)."""
        value = self.per_host_input_for_training
        if value is True:
            return InputPipelineConfig.PER_HOST_V1
        if value is False:
            return InputPipelineConfig.PER_SHARD_V1
        return value


class RunConfig:
    """Run configuration with the signature of `tf.contrib.tpu.RunConfig` (TF 1.15).

    Args:
      tpu_config: a `TPUConfig`; default `TPUConfig()`.
      evaluation_master, master, cluster: where a TPU is. A `cluster` (e.g. a
        `tf.distribute.cluster_resolver.TPUClusterResolver`) or a `master` naming a TPU
        (`grpc://...`) makes `use_tpu=True` run on `tf.distribute.TPUStrategy`.
      model_dir, tf_random_seed, save_summary_steps, save_checkpoints_steps,
      save_checkpoints_secs, session_config, keep_checkpoint_max, keep_checkpoint_every_n_hours,
      log_step_count_steps, train_distribute, ...: as in `tf.estimator.RunConfig`.
        `tf_random_seed` is passed to `tf.random.set_seed` before model variables are built.

    Raises:
      ValueError: both master and cluster, both save_checkpoints_steps and _secs, or a field
        of the wrong kind.
    """

    def __init__(self, tpu_config=None, evaluation_master=None, master=None, cluster=None,
                 model_dir=None, tf_random_seed=None, save_summary_steps=100,
                 save_checkpoints_steps=_USE_DEFAULT, save_checkpoints_secs=_USE_DEFAULT,
                 session_config=None, keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000,
                 log_step_count_steps=100, train_distribute=None, device_fn=None, protocol=None,
                 eval_distribute=None, experimental_distribute=None,
                 experimental_max_worker_delay_secs=None, session_creation_timeout_secs=7200):
        if tpu_config is not None and not isinstance(tpu_config, TPUConfig):
            raise ValueError(
                f"RunConfig `tpu_config` must be a TPUConfig, got {type(tpu_config).__name__}: "
                "pass tpu_config=TPUConfig(iterations_per_loop=...).")
        if master is not None and cluster is not None:
            raise ValueError("Both master and cluster are set.")
        if save_checkpoints_steps is _USE_DEFAULT and save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_steps, save_checkpoints_secs = None, DEFAULT_SAVE_CHECKPOINTS_SECS
        save_checkpoints_steps = None if save_checkpoints_steps is _USE_DEFAULT else save_checkpoints_steps
        save_checkpoints_secs = None if save_checkpoints_secs is _USE_DEFAULT else save_checkpoints_secs
        if save_checkpoints_steps is not None and save_checkpoints_secs is not None:
            raise ValueError("Can not provide both save_checkpoints_steps and save_checkpoints_secs.")
        for field, value in (("save_summary_steps", save_summary_steps),
                             ("save_checkpoints_steps", save_checkpoints_steps),
                             ("save_checkpoints_secs", save_checkpoints_secs),
                             ("keep_checkpoint_max", keep_checkpoint_max),
                             ("log_step_count_steps", log_step_count_steps)):
            if value is not None and (not isinstance(value, (int, float)) or value < 0):
                raise ValueError(f"RunConfig `{field}` ({value!r}) must be None or a number >= 0.")
        arguments.check_all("RunConfig", {
            "device_fn": device_fn, "protocol": protocol,
            "experimental_distribute": experimental_distribute,
            "experimental_max_worker_delay_secs": experimental_max_worker_delay_secs,
            "session_creation_timeout_secs": session_creation_timeout_secs,
            "keep_checkpoint_every_n_hours": keep_checkpoint_every_n_hours})
        if evaluation_master not in (None, "") and evaluation_master != master:
            raise NotImplementedError(
                f"RunConfig(evaluation_master={evaluation_master!r}) differs from master "
                f"({master!r}): estimator_bridge's evaluate() runs where train() runs (one "
                "deployment per estimator). To run: drop evaluation_master, or evaluate with a "
                "second estimator whose RunConfig names that master.")
        if eval_distribute is not None and eval_distribute is not train_distribute:
            raise NotImplementedError(
                f"RunConfig(eval_distribute={eval_distribute!r}) is not the same strategy as "
                "train_distribute: estimator_bridge's evaluate() runs on the strategy train() "
                "runs on. To run: drop eval_distribute, or pass the same strategy object, or "
                "evaluate with a second estimator whose train_distribute is that strategy.")
        session_config_lib.apply(session_config)
        self._tpu_config = tpu_config or TPUConfig()
        self._master = master
        self._evaluation_master = master if evaluation_master is None else evaluation_master
        self._cluster = cluster
        self._model_dir = str(model_dir) if model_dir is not None else None
        self._tf_random_seed = tf_random_seed
        self._save_summary_steps = save_summary_steps
        self._save_checkpoints_steps = save_checkpoints_steps
        self._save_checkpoints_secs = save_checkpoints_secs
        self._session_config = session_config
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._log_step_count_steps = log_step_count_steps
        self._train_distribute = train_distribute
        self._eval_distribute = eval_distribute
        self._device_fn = device_fn
        self._protocol = protocol
        self._experimental_distribute = experimental_distribute
        self._experimental_max_worker_delay_secs = experimental_max_worker_delay_secs
        self._session_creation_timeout_secs = session_creation_timeout_secs
        # TF1's RunConfig read TF_CONFIG at construction (cluster_spec, task_type, is_chief...).
        self._cluster_info = cluster_lib.from_environment()
        self._frozen = True

    def __setattr__(self, name, value):
        """Frozen after construction: every layer reads the values validated at birth."""
        if getattr(self, "_frozen", False):
            raise AttributeError(
                f"RunConfig is frozen: cannot set {name!r} after construction (the estimator "
                "and its loops read the values validated when it was built). Use "
                f"config = config.replace({name.lstrip('_')}=...) to get a changed copy.")
        object.__setattr__(self, name, value)

    # Read-only properties, as in TF1 (configs are values, changed only through replace()).
    tpu_config = property(lambda self: self._tpu_config)
    master = property(lambda self: self._master)
    evaluation_master = property(lambda self: self._evaluation_master)
    cluster = property(lambda self: self._cluster)
    model_dir = property(lambda self: self._model_dir)
    tf_random_seed = property(lambda self: self._tf_random_seed)
    save_summary_steps = property(lambda self: self._save_summary_steps)
    save_checkpoints_steps = property(lambda self: self._save_checkpoints_steps)
    save_checkpoints_secs = property(lambda self: self._save_checkpoints_secs)
    session_config = property(lambda self: self._session_config)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_every_n_hours = property(lambda self: self._keep_checkpoint_every_n_hours)
    log_step_count_steps = property(lambda self: self._log_step_count_steps)
    train_distribute = property(lambda self: self._train_distribute)
    eval_distribute = property(lambda self: self._eval_distribute)
    device_fn = property(lambda self: self._device_fn)
    protocol = property(lambda self: self._protocol)
    cluster_info = property(lambda self: self._cluster_info)
    cluster_spec = property(lambda self: self._cluster_info.cluster_spec)
    is_chief = property(lambda self: self._cluster_info.is_chief)
    num_worker_replicas = property(lambda self: self._cluster_info.num_worker_replicas)
    num_ps_replicas = property(lambda self: self._cluster_info.num_ps_replicas)
    global_id_in_cluster = property(lambda self: self._cluster_info.global_id_in_cluster)
    task_type = property(lambda self: self._cluster_info.task_type)
    task_id = property(lambda self: self._cluster_info.task_id)

    _FIELDS = ("tpu_config", "evaluation_master", "master", "cluster", "model_dir",
               "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
               "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
               "keep_checkpoint_every_n_hours", "log_step_count_steps", "train_distribute",
               "device_fn", "protocol", "eval_distribute")

    def replace(self, **changes) -> "RunConfig":
        """A copy with `changes` applied (tpu_config is kept unless replaced), like TF1."""
        unknown = set(changes) - set(self._FIELDS)
        if unknown:
            raise ValueError(f"RunConfig.replace got unknown fields {sorted(unknown)}; "
                             f"allowed: {list(self._FIELDS)}.")
        values = {name: getattr(self, name) for name in self._FIELDS}
        # Keep the "neither given" distinction: replacing one of the two clears the other.
        if "save_checkpoints_steps" in changes and "save_checkpoints_secs" not in changes:
            values["save_checkpoints_secs"] = None
        if "save_checkpoints_secs" in changes and "save_checkpoints_steps" not in changes:
            values["save_checkpoints_steps"] = None
        values.update(changes)
        return RunConfig(**values)

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS)
        return f"RunConfig({fields})"
