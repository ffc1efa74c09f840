"""input_fn -> distributed batches: the slices each replica gets and the steps the data holds."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.runtime import distribute, inputs

def make(input_fn, *, replicas, global_batch_size=8, **tpu_config):
    config = tpu.RunConfig(tpu_config=tpu.TPUConfig(num_shards=replicas, **tpu_config))
    deployment = distribute.choose_deployment(config, use_tpu=replicas > 1)
    data = inputs.make_input(input_fn, mode=tpu.ModeKeys.TRAIN, params={}, config=config,
                             deployment=deployment, global_batch_size=global_batch_size)
    data.strategy = deployment.strategy
    return data


ROWS = np.arange(40, dtype=np.float32).reshape(20, 2)


def test_steps_available_counts_global_batches():
    seen = {}

    def input_fn(params):
        seen.update(params)
        return tf.data.Dataset.from_tensor_slices((ROWS, ROWS[:, 0])).batch(
            params["batch_size"], drop_remainder=True)

    data = make(input_fn, replicas=1)
    assert seen == {"batch_size": 8}
    assert (data.steps_available, data.per_replica_batch_size, data.has_labels) == (2, 8, True)
    assert data.element_spec[0].shape.as_list() == [8, 2]


def test_on_two_replicas_each_gets_a_contiguous_half_of_the_global_batch():
    def input_fn(params):
        return tf.data.Dataset.from_tensor_slices(ROWS).batch(params["batch_size"],
                                                              drop_remainder=True)

    data = make(input_fn, replicas=2)
    assert (data.steps_available, data.per_replica_batch_size, data.has_labels) == (2, 4, False)
    features, labels = next(iter(data.dataset))
    parts = [part.numpy() for part in data.strategy.experimental_local_results(features)]
    np.testing.assert_array_equal(parts[0], ROWS[0:4])
    np.testing.assert_array_equal(parts[1], ROWS[4:8])


def test_infinite_and_unknown_lengths():
    def repeated(params):
        return tf.data.Dataset.from_tensor_slices(ROWS).repeat().batch(8, drop_remainder=True)

    def filtered(params):
        return tf.data.Dataset.from_tensor_slices(ROWS).filter(
            lambda row: row[0] > 3).batch(8, drop_remainder=True)

    assert make(repeated, replicas=1).steps_available is None
    assert make(filtered, replicas=1).steps_available == inputs.UNKNOWN_STEPS == -1


def test_tpu_cores_need_static_shapes():
    def input_fn(params):
        return tf.data.Dataset.from_tensor_slices(ROWS).batch(params["batch_size"])

    with pytest.raises(ValueError, match=r"must have static shape.*drop_remainder=True"):
        make(input_fn, replicas=2)
