"""The traced loops, wired as the estimator wires them, on a model whose numbers are exact.

y = 2x with x = 1..4 in every batch, one weight w (initially 0), loss mean((w x - y)^2) =
7.5 (w - 2)^2, gradient descent with learning rate 0.1: each step multiplies (w - 2) by -0.5,
so the per-step losses are 30, 7.5, 1.875 and w ends at 2.25.
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.contract.calling import ModelFunction
from estimator_bridge.runtime import build, distribute, inputs, loops
from estimator_bridge.runtime.variables import VariableCache

tf1 = tf.compat.v1
X = np.array([[1.0], [2.0], [3.0], [4.0]], np.float32)


def input_fn(params):
    return tf.data.Dataset.from_tensors((X, 2 * X)).repeat()


def model_fn(features, labels, mode, params):
    w = tf1.get_variable("w", [], initializer=tf1.zeros_initializer())
    predictions = w * features
    loss = tf.reduce_mean(tf.square(predictions - labels))
    train_op = None
    if mode == tpu.ModeKeys.TRAIN:
        train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf1.train.get_global_step())
    return tpu.TPUEstimatorSpec(
        mode=mode, loss=loss, train_op=train_op,
        eval_metrics=(lambda p: {"mean_prediction": tf1.metrics.mean(p)}, [predictions]))


@pytest.fixture
def wired():
    config = tpu.RunConfig()
    deployment = distribute.choose_deployment(config, use_tpu=False)
    host_cache = VariableCache(strategy=None)
    cache = VariableCache(deployment.strategy, local_cache=host_cache)
    data = inputs.make_input(input_fn, mode=tpu.ModeKeys.TRAIN, params={}, config=config,
                             deployment=deployment, global_batch_size=4)

    def bound(mode):
        model_function = ModelFunction(model_fn, params={}, config=config, mode=mode,
                                       batch_size=data.per_replica_batch_size, use_tpu=False)
        build.build_variables(cache=cache, model_function=model_function,
                              element_spec=data.element_spec, has_labels=data.has_labels)
        return model_function

    return deployment, cache, host_cache, data, bound


def test_train_loop_runs_num_steps_per_call_and_returns_each_steps_loss(wired):
    deployment, cache, _, data, bound = wired
    loop = loops.TrainLoop(deployment=deployment, cache=cache,
                           model_function=bound(tpu.ModeKeys.TRAIN), has_labels=True)
    iterator = iter(data.dataset)
    np.testing.assert_array_equal(loop(iterator, 2), np.float32([30.0, 7.5]))
    assert loop.last_global_step == 2
    np.testing.assert_array_equal(loop(iterator, 1), np.float32([1.875]))
    assert loop.last_global_step == 3
    assert loop.trace_count == 1  # the step count is a tensor: one trace for every loop size
    assert cache["w"].numpy() == np.float32(2.25)


def test_eval_loop_sums_losses_and_keeps_metrics_on_the_host(wired):
    deployment, cache, host_cache, data, bound = wired
    model_function = bound(tpu.ModeKeys.EVAL)  # the build pass creates w
    cache["w"].assign(2.25)
    loop = loops.EvalLoop(deployment=deployment, cache=cache, host_cache=host_cache,
                          model_function=model_function, has_labels=True)
    iterator = iter(data.dataset)
    assert loop(iterator, 4) == np.float32(4 * 0.46875)
    assert cache["w"].numpy() == np.float32(2.25)  # evaluation never trains
    assert cache["global_step"].numpy() == 0
    assert loop.final_values() == {"mean_prediction": np.float32(2.25 * 2.5)}
