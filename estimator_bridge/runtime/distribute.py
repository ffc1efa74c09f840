"""Which tf.distribute strategy runs the model: one device, N emulated TPU cores, or a real TPU.

How to ask for R replicas (the TPU semantics: per-replica batch G/R, CrossShardOptimizer
averaging, eval_metrics tensors concatenated in replica order):

* ``TPUEstimator(..., use_tpu=True, config=RunConfig(tpu_config=TPUConfig(num_shards=R)))``
  with no TPU named in the config runs R replicas on local devices: R GPUs when there are that
  many, otherwise R logical CPU devices (MirroredStrategy). Logical CPU devices must be created
  before TensorFlow initialises its devices: call ``configure_logical_cpus(R)`` (or
  ``tf.config.set_logical_device_configuration``) first; with fewer devices than R the bridge
  raises an error saying exactly that. ``num_shards=None`` means 1 replica.
* ``use_tpu=True`` with ``RunConfig(cluster=TPUClusterResolver(...))`` or
  ``RunConfig(master='grpc://host:8470')`` runs on that TPU with ``tf.distribute.TPUStrategy``;
  an unreachable TPU is an error within seconds, never a hang. A resolver of TF 1.15's
  ``tpu=''`` (``estimator_bridge.TPUClusterResolver``: the local session) names no TPU.
* ``use_tpu=False`` (TPUEstimator's CPU path, and ``Estimator``) runs on one device
  (``OneDeviceStrategy``), or on ``RunConfig(train_distribute=strategy)`` when given.
"""

from __future__ import annotations

import dataclasses
import socket
import urllib.parse

import tensorflow as tf

TPU_CONNECT_TIMEOUT_SECS = 10.0


@dataclasses.dataclass(frozen=True)
class Deployment:
    """Where the model runs.

    Attributes:
      strategy: the tf.distribute strategy.
      num_replicas: R, the number of model replicas a step runs on.
      tpu_semantics: True when emulating or running on TPU cores (use_tpu=True): params hold
        the per-replica batch G/R, input must have static shapes, CrossShardOptimizer averages.
      description: one line for logs and errors.
    """

    strategy: tf.distribute.Strategy
    num_replicas: int
    tpu_semantics: bool
    description: str


def configure_logical_cpus(count: int) -> None:
    """Splits the first physical CPU into `count` logical devices (before TF initialises them).

    Raises:
      RuntimeError: TensorFlow's devices were already initialised with a different count; the
        message says to call this at the start of the program.
    """
    cpus = tf.config.list_physical_devices("CPU")
    try:
        tf.config.set_logical_device_configuration(
            cpus[0], [tf.config.LogicalDeviceConfiguration() for _ in range(count)])
    except RuntimeError as error:
        existing = len(tf.config.list_logical_devices("CPU"))
        if existing == count:
            return
        raise RuntimeError(
            f"cannot create {count} logical CPU devices: TensorFlow already initialised "
            f"{existing}. Call estimator_bridge.configure_logical_cpus({count}) at the "
            "start of the program, before anything runs a TensorFlow op.") from error


def _local_devices_for(num_replicas: int) -> list:
    gpus = [d.name for d in tf.config.list_logical_devices("GPU")]
    if len(gpus) >= num_replicas:
        return gpus[:num_replicas]
    cpus = [d.name for d in tf.config.list_logical_devices("CPU")]
    if len(cpus) >= num_replicas:
        return cpus[:num_replicas]
    raise ValueError(
        f"TPUConfig(num_shards={num_replicas}) asks for {num_replicas} replicas, but this machine "
        f"has {len(cpus)} logical CPU device(s) and {len(gpus)} GPU(s) and no TPU is named in "
        "RunConfig. To emulate the TPU cores on CPU, create logical devices at the start of the "
        f"program: estimator_bridge.configure_logical_cpus({num_replicas}) (i.e. "
        "tf.config.set_logical_device_configuration(tf.config.list_physical_devices('CPU')[0], "
        f"[tf.config.LogicalDeviceConfiguration()] * {num_replicas})); or pass "
        "RunConfig(cluster=TPUClusterResolver(...)) to run on a TPU.")


def _tpu_address(config):
    """The TPU the config names (a resolver or a grpc master), or None.

    A resolver built with TF 1.15's `tpu=''` (the local session) names no TPU.
    """
    from estimator_bridge.cluster_resolver import names_local_session

    if config.cluster is not None and not names_local_session(config.cluster):
        return config.cluster
    master = config.master or ""
    if master.startswith("grpc://"):
        return master
    return None


def _check_reachable(master: str) -> None:
    parsed = urllib.parse.urlparse(master)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or 8470),
                                      timeout=TPU_CONNECT_TIMEOUT_SECS):
            pass
    except OSError as error:
        raise RuntimeError(
            f"RunConfig names the TPU at {master!r}, but it is not reachable ({error}). Check "
            "the TPU name/address and that it is running, or pass use_tpu=False (or "
            "TPUConfig(num_shards=R) without master/cluster) to run on local devices.") from error


def _tpu_deployment(target) -> Deployment:
    if isinstance(target, str):
        _check_reachable(target)
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=target)
    else:
        resolver = target
        master = resolver.master() if hasattr(resolver, "master") else ""
        if master and str(master).startswith("grpc://"):
            _check_reachable(str(master))
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    strategy = tf.distribute.TPUStrategy(resolver)
    return Deployment(strategy, strategy.num_replicas_in_sync, True,
                      f"TPUStrategy over {strategy.num_replicas_in_sync} TPU cores")


def choose_deployment(config, *, use_tpu: bool) -> Deployment:
    """The deployment for a TPUEstimator/Estimator configuration (see the module docstring)."""
    from estimator_bridge.contract import cluster as cluster_lib

    info = getattr(config, "cluster_info", cluster_lib.LOCAL)
    if info.is_multi_worker and _tpu_address(config) is None:
        cluster_lib.check_can_train(info)
        strategy = tf.distribute.MultiWorkerMirroredStrategy()  # one replica per worker
        return Deployment(strategy, strategy.num_replicas_in_sync, bool(use_tpu),
                          f"MultiWorkerMirroredStrategy: {info.num_worker_replicas} workers, "
                          f"this is {info.task_type}:{info.task_id}")
    if use_tpu:
        target = _tpu_address(config)
        if target is not None:
            return _tpu_deployment(target)
        num_replicas = config.tpu_config.num_shards or 1
        if num_replicas == 1:
            return Deployment(tf.distribute.OneDeviceStrategy(_default_device()), 1, True,
                              "1 emulated TPU core on " + _default_device())
        devices = _local_devices_for(num_replicas)
        return Deployment(_mirrored(devices), num_replicas, True,
                          f"{num_replicas} emulated TPU cores on {', '.join(devices)}")
    if config.train_distribute is not None:
        strategy = config.train_distribute
        return Deployment(strategy, strategy.num_replicas_in_sync, False,
                          f"{type(strategy).__name__} from RunConfig.train_distribute")
    return Deployment(tf.distribute.OneDeviceStrategy(_default_device()), 1, False,
                      "one device: " + _default_device())


def _mirrored(devices) -> tf.distribute.MirroredStrategy:
    """MirroredStrategy; on logical CPU devices reducing through one device, not collectives.

    Collective all-reduce keys are allocated per strategy object, starting at the same value:
    a second MirroredStrategy with another device count in the same process then fails with
    "Device ... is joining a group with size8, but that group has size 2" (measured). CPU
    emulation gains nothing from collectives, so it sums on one device instead.
    """
    if all("GPU" not in device.upper() for device in devices):
        return tf.distribute.MirroredStrategy(
            devices, cross_device_ops=tf.distribute.ReductionToOneDevice())
    return tf.distribute.MirroredStrategy(devices)


def _default_device() -> str:
    return "/gpu:0" if tf.config.list_logical_devices("GPU") else "/cpu:0"
