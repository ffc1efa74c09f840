"""TPUEstimatorSpec / EstimatorSpec: the fields each mode needs, checked with TF 1.15's messages."""

from __future__ import annotations

import pytest
import tensorflow as tf

import estimator_bridge as tpu

LOSS = tf.constant(0.5)


def test_mode_keys_are_tf1s_strings():
    assert (tpu.ModeKeys.TRAIN, tpu.ModeKeys.EVAL, tpu.ModeKeys.PREDICT) == (
        "train", "eval", "infer")


@pytest.mark.parametrize("spec_class", [tpu.TPUEstimatorSpec, tpu.EstimatorSpec])
def test_each_mode_needs_its_fields(spec_class):
    with pytest.raises(ValueError, match="Missing train_op"):
        spec_class(mode=tpu.ModeKeys.TRAIN, loss=LOSS)
    with pytest.raises(ValueError, match="Missing loss"):
        spec_class(mode=tpu.ModeKeys.EVAL)
    with pytest.raises(ValueError, match="Missing predictions"):
        spec_class(mode=tpu.ModeKeys.PREDICT)
    spec = spec_class(mode=tpu.ModeKeys.PREDICT, predictions={"p": LOSS})
    assert spec.loss is None and spec.training_hooks == ()


def test_a_loss_of_one_element_becomes_a_scalar_and_a_vector_is_refused():
    spec = tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=tf.constant([0.25]))
    assert spec.loss.shape.rank == 0 and float(spec.loss) == 0.25
    with pytest.raises(ValueError, match=r"Loss must be scalar.*tf.reduce_mean"):
        tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=tf.constant([0.25, 0.75]))


def test_eval_metrics_and_host_call_are_checked_like_tf115():
    def metric_fn(labels, logits):
        return {}

    spec = tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=LOSS,
                                eval_metrics=[metric_fn, [LOSS, LOSS]])
    assert spec.eval_metrics == (metric_fn, [LOSS, LOSS])
    with pytest.raises(RuntimeError, match=r"length of tensors 1 does not match method args of "
                                           r"the function, which takes 2"):
        tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=LOSS, eval_metrics=(metric_fn, [LOSS]))
    with pytest.raises(ValueError, match="host_call should have two elements"):
        tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=LOSS, host_call=(metric_fn,))


def test_hooks_must_be_session_run_hooks():
    with pytest.raises(TypeError, match=r"All hooks must be SessionRunHook instances.*in "
                                        r"training_hooks"):
        tpu.TPUEstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=LOSS, training_hooks=[object()])


def test_eval_metric_ops_must_be_value_update_pairs():
    with pytest.raises(TypeError, match=r"Values of eval_metric_ops must be \(metric_value, "
                                        r"update_op\) tuples.*'acc'"):
        tpu.EstimatorSpec(mode=tpu.ModeKeys.EVAL, loss=LOSS, eval_metric_ops={"acc": LOSS})
