"""scaffold_fn's Saver and TF1 hashing inside model_fn (issue 17, found on tensorflow/tpu's
EfficientNet main.py of 2020 under verify).

The numbers of both behaviours are pinned against TF 1.15 by test_real_patterns.py's
`test_training_with_exponential_moving_averages_matches_tf115[true]` (runner and migrated); these
tests are what a user who gets them wrong is told.
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.spec import check_scaffold
from tests.estimator_bridge import tiny

tf1 = tf.compat.v1


def _ema_model_fn(features, labels, mode, params):
    """Trains with an EMA of the weights; evaluates the averages through a scaffold Saver."""
    logits = tiny.logits_of(features)
    loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
    ema = tf1.train.ExponentialMovingAverage(0.5, num_updates=tf1.train.get_global_step())
    # TF1 code hashes variables (sets, dict keys); TF 2.x raised inside model_fn.
    averaged = list(set(tf1.trainable_variables()))
    if mode == tpu.ModeKeys.TRAIN:
        minimize = tf1.train.GradientDescentOptimizer(0.5).minimize(loss, tf1.train.get_global_step())
        with tf.control_dependencies([minimize]):
            train_op = ema.apply(averaged)
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)
    restore = ema.variables_to_restore(averaged)
    return tpu.TPUEstimatorSpec(
        mode=mode, loss=loss,
        scaffold_fn=lambda: tf1.train.Scaffold(saver=tf1.train.Saver(restore)))


def test_evaluation_restores_the_averages_through_the_scaffold_saver(tmp_path):
    estimator = tiny.make_estimator(str(tmp_path), model_fn=_ema_model_fn)
    estimator.train(tiny.input_fn, max_steps=8)
    evaluated = estimator.evaluate(tiny.input_fn, steps=2)
    kernel = estimator.get_variable_value("dense/kernel")
    average = estimator.get_variable_value("dense/kernel/ExponentialMovingAverage")
    assert not np.allclose(kernel, average)
    # The same evaluation on the averages written as the raw weights: equal losses.
    reader = tf.train.load_checkpoint(estimator.latest_checkpoint())
    features = tf.constant(tiny.FEATURES[:32])
    logits = tf.matmul(features, average) + reader.get_tensor(
        "dense/bias/ExponentialMovingAverage")
    expected = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        tiny.LABELS[:32], logits)).numpy()
    np.testing.assert_allclose(evaluated["loss"], expected, rtol=1e-6)


def test_a_scaffold_saver_in_training_is_refused_saying_where_it_is_honoured():
    with tf.Graph().as_default():
        variable = tf1.get_variable("w", [1])
        scaffold = tf1.train.Scaffold(saver=tf1.train.Saver({"w/Average": variable}))
        with pytest.raises(NotImplementedError, match="honoured when evaluating and predicting"):
            check_scaffold(scaffold, "the Scaffold returned by scaffold_fn", tpu.ModeKeys.TRAIN)
        assert check_scaffold(scaffold, "here", tpu.ModeKeys.EVAL) == {"w/Average": variable}
        assert check_scaffold(tf1.train.Scaffold(saver=tf1.train.Saver([variable])), "here",
                              tpu.ModeKeys.PREDICT) is None


def test_a_checkpoint_without_the_saver_s_names_fails_naming_them(tmp_path):
    def model_fn(features, labels, mode, params):
        spec = tiny.make_model_fn()(features, labels, mode, params)
        if mode != tpu.ModeKeys.EVAL:
            return spec
        kernel = [v for v in tf1.global_variables() if v.op.name == "dense/kernel"][0]
        restore = {"dense/kernel/NotThere": kernel}
        return tpu.TPUEstimatorSpec(mode=mode, loss=spec.loss, scaffold_fn=lambda: tf1.train.Scaffold(
            saver=tf1.train.Saver(restore)))

    estimator = tiny.make_estimator(str(tmp_path), model_fn=model_fn)
    estimator.train(tiny.input_fn, max_steps=4)
    with pytest.raises(ValueError, match="dense/kernel/NotThere"):
        estimator.evaluate(tiny.input_fn, steps=1)


def test_the_scaffold_saver_s_own_restore_op_never_runs_even_without_grappler(tmp_path,
                                                                             monkeypatch):
    """The Saver scaffold_fn builds holds a RestoreV2 of the file `model` (Saver's default):
    TF1's Session never ran it. The eval step is pruned to its fetches; with Grappler's meta
    optimizer off (EfficientNet's RunConfig session_config does that, process-wide) the runtime
    kept and ran it: NotFoundError 'Failed to find any matching files for model'."""
    monkeypatch.chdir(tmp_path)  # no file called `model` here
    before = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    try:
        estimator = tiny.make_estimator(str(tmp_path / "model_dir"), model_fn=_ema_model_fn)
        estimator.train(tiny.input_fn, max_steps=4)
        assert np.isfinite(estimator.evaluate(tiny.input_fn, steps=1)["loss"])
    finally:
        tf.config.optimizer.set_experimental_options(
            {"disable_meta_optimizer": before.get("disable_meta_optimizer", False)})
