"""Bad input fails early with the legacy message, naming the object, the value and the fix."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from tests.estimator_bridge import tiny

tf1 = tf.compat.v1


def test_input_fn_without_params_names_the_function_and_the_fix(tmp_path):
    def input_fn():
        return tiny.input_fn({"batch_size": 16})

    with pytest.raises(ValueError, match=r"input_fn \(input_fn\) does not include params "
                                         r"argument.*Add `params` to its signature"):
        tiny.make_estimator(tmp_path).train(input_fn, steps=1)


def test_model_fn_without_params_is_rejected_at_construction(tmp_path):
    def model_fn(features, labels, mode):
        raise AssertionError("never called")

    with pytest.raises(ValueError, match=r"model_fn \(model_fn\) does not include params "
                                         r"argument, required by TPUEstimator"):
        tiny.make_estimator(tmp_path, model_fn=model_fn)


def test_reserved_params_keys():
    with pytest.raises(ValueError, match=r"\['batch_size', 'context'\] are reserved keys but "
                                         r"existed in params \{'batch_size': 8\}"):
        tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=tpu.RunConfig(),
                         params={"batch_size": 8}, use_tpu=False)


def test_config_must_be_the_bridge_run_config():
    with pytest.raises(ValueError, match=r"`config` must be provided with type "
                                         r"`tpu_config.RunConfig`; got NoneType"):
        tpu.TPUEstimator(model_fn=tiny.make_model_fn(), use_tpu=False)


def test_batch_size_must_divide_by_the_replica_count(tmp_path):
    estimator = tiny.make_estimator(tmp_path, replicas=8, train_batch_size=12)
    with pytest.raises(ValueError, match=r"train batch size 12 must be divisible by number of "
                                         r"replicas 8.*\(e.g. 16\)"):
        estimator.train(tiny.input_fn, steps=1)


def test_dynamic_shapes_are_rejected_when_emulating_tpu_cores(tmp_path):
    def input_fn(params):  # no drop_remainder: the batch dimension is unknown
        return tf.data.Dataset.from_tensor_slices((tiny.FEATURES, tiny.LABELS)).batch(
            params["batch_size"])

    with pytest.raises(ValueError, match=r"must have static shape.*shape=\(None, 8\).*"
                                         r"drop_remainder=True"):
        tiny.make_estimator(tmp_path, replicas=2).train(input_fn, steps=1)


def test_too_few_devices_says_how_to_create_logical_devices(tmp_path):
    with pytest.raises(ValueError, match=r"TPUConfig\(num_shards=16\) asks for 16 replicas, but "
                                         r"this machine has 8 logical CPU.*configure_logical_cpus"):
        tiny.make_estimator(tmp_path, replicas=16).train(tiny.input_fn, steps=1)


@pytest.mark.timeout(120)  # a hang fails here with a stack; speed is not asserted (shared machine)
def test_an_unreachable_tpu_is_an_error_not_a_hang(tmp_path):
    config = tpu.RunConfig(model_dir=str(tmp_path), master="grpc://127.0.0.1:1")
    estimator = tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=config, use_tpu=True,
                                 train_batch_size=16)
    with pytest.raises(RuntimeError, match=r"names the TPU at 'grpc://127.0.0.1:1', but it is "
                                           r"not reachable"):
        estimator.train(tiny.input_fn, steps=1)


@pytest.mark.parametrize("eval_metrics, error, message", [
    ({"fn": tiny.metric_fn}, ValueError, r"eval_metrics should be tuple or list; got dict"),
    ((tiny.metric_fn,), ValueError, r"eval_metrics should have two elements.; got 1"),
    (("metric_fn", []), TypeError, r"eval_metrics\[0\] should be callable."),
    ((tiny.metric_fn, "labels"), ValueError,
     r"eval_metrics\[1\] should be tuple or list, or dict.; got str"),
    ((tiny.metric_fn, [1, 2, 3]), RuntimeError,
     r"length of tensors 3 does not match method args of the function, which takes 2"),
])
def test_eval_metrics_of_the_wrong_shape(eval_metrics, error, message):
    with pytest.raises(error, match=message):
        tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=tf.constant(1.0),
                             eval_metrics=eval_metrics)


def test_steps_and_max_steps_together(tmp_path):
    with pytest.raises(ValueError, match=r"Can not provide both steps and max_steps. Got "
                                         r"steps=5, max_steps=10"):
        tiny.make_estimator(tmp_path).train(tiny.input_fn, steps=5, max_steps=10)


def test_non_scalar_loss():
    with pytest.raises(ValueError, match=r"Loss must be scalar, given: .*of shape \(16,\).*"
                                         r"reduce it"):
        tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=tf.zeros([16]))


def test_loss_of_shape_one_becomes_a_scalar():
    spec = tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=tf.ones([1]))
    assert spec.loss.shape.rank == 0


def test_missing_train_op():
    with pytest.raises(ValueError, match=r"Missing train_op.*optimizer.minimize"):
        tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.TRAIN, loss=tf.constant(1.0))


def test_iterations_per_loop_is_validated_at_construction():
    with pytest.raises(ValueError, match=r"Invalid TPUConfig `iterations_per_loop` value.*got 0"):
        tpu.TPUConfig(iterations_per_loop=0)


def test_evaluate_needs_steps_on_tpu_and_positive_steps(tmp_path):
    with pytest.raises(ValueError, match=r"Evaluate `steps` must be set on TPU. Cannot be `None`"):
        tiny.make_estimator(tmp_path, replicas=1).evaluate(tiny.input_fn)
    with pytest.raises(ValueError, match=r"Must specify steps > 0, given: 0"):
        tiny.make_estimator(tmp_path).evaluate(tiny.input_fn, steps=0)


def test_nan_loss_stops_training_without_a_final_checkpoint(tmp_path):
    def nan_loss(labels, logits):
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        step = tf1.train.get_global_step()
        # finite for the first 5 steps, then NaN: the error must come from a later loop.
        return tf1.where(step < 5, loss, loss * np.float32("nan"))

    estimator = tiny.make_estimator(tmp_path, model_fn=tiny.make_model_fn(loss_fn=nan_loss),
                                    save_checkpoints_steps=1000)
    with pytest.raises(tpu.NanLossDuringTrainingError, match=r"NaN loss during training."):
        estimator.train(tiny.input_fn, steps=20)
    assert tpu.NanLossDuringTrainingError is tf1.train.NanLossDuringTrainingError
    checkpoints = sorted(os.path.basename(p) for p in glob.glob(str(tmp_path / "*.index")))
    assert checkpoints == ["model.ckpt-0.index"]


def test_a_train_op_that_never_increments_the_global_step(tmp_path):
    model_fn = tiny.make_model_fn(train_op_fn=lambda optimizer, loss: optimizer.minimize(loss))
    with pytest.raises(RuntimeError, match=r"global_step stayed at 0.*optimizer.minimize\(loss, "
                                           r"tf.compat.v1.train.get_global_step\(\)\)"):
        tiny.make_estimator(tmp_path, model_fn=model_fn).train(tiny.input_fn, steps=8)


def test_cross_shard_optimizer_rejects_keras_optimizers_and_bad_reductions():
    with pytest.raises(TypeError, match=r"only works with tf.compat.v1.train.Optimizer and not "
                                        r"SGD"):
        tpu.CrossShardOptimizer(tf.keras.optimizers.SGD())
    with pytest.raises(ValueError, match=r"Unsupported reduction: none"):
        tpu.CrossShardOptimizer(tf1.train.GradientDescentOptimizer(0.1),
                                reduction=tf1.losses.Reduction.NONE)
