"""Which strategy runs the model, and on how many replicas (conftest made 8 logical CPUs)."""

from __future__ import annotations

import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.runtime import distribute


def config(**tpu_config):
    return tpu.RunConfig(tpu_config=tpu.TPUConfig(**tpu_config))


def test_the_cpu_path_is_one_device_without_tpu_semantics():
    deployment = distribute.choose_deployment(config(num_shards=8), use_tpu=False)
    assert isinstance(deployment.strategy, tf.distribute.OneDeviceStrategy)
    assert (deployment.num_replicas, deployment.tpu_semantics) == (1, False)
    assert deployment.description == "one device: /cpu:0"


def test_num_shards_emulates_that_many_tpu_cores_on_logical_cpus():
    deployment = distribute.choose_deployment(config(num_shards=4), use_tpu=True)
    assert isinstance(deployment.strategy, tf.distribute.MirroredStrategy)
    assert (deployment.num_replicas, deployment.tpu_semantics) == (4, True)
    assert deployment.strategy.num_replicas_in_sync == 4
    assert deployment.description.startswith("4 emulated TPU cores on ")


def test_one_shard_is_one_emulated_core():
    deployment = distribute.choose_deployment(config(), use_tpu=True)
    assert isinstance(deployment.strategy, tf.distribute.OneDeviceStrategy)
    assert (deployment.num_replicas, deployment.tpu_semantics) == (1, True)


def test_more_shards_than_devices_says_how_to_create_them():
    with pytest.raises(ValueError, match=r"num_shards=16\) asks for 16 replicas, but this "
                                         r"machine has 8 logical CPU.*configure_logical_cpus\(16\)"):
        distribute.choose_deployment(config(num_shards=16), use_tpu=True)


def test_train_distribute_is_used_on_the_cpu_path():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    deployment = distribute.choose_deployment(tpu.RunConfig(train_distribute=strategy),
                                              use_tpu=False)
    assert deployment.strategy is strategy
    assert (deployment.num_replicas, deployment.tpu_semantics) == (2, False)
