"""A tiny TF1-style TPUEstimator program for behaviour tests (8 features, 3 classes, 64 rows).

Written as legacy code was: get_variable, v1 losses and optimizers, TPUEstimatorSpec, a
metric_fn of v1 metrics, `if params['use_tpu']: CrossShardOptimizer`. Tests swap pieces through
keyword arguments instead of copying the program.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf

import estimator_bridge as tpu

tf1 = tf.compat.v1

FEATURES = np.random.RandomState(1).randn(64, 8).astype(np.float32)
LABELS = (FEATURES[:, 0] > 0).astype(np.int32) + (FEATURES[:, 1] > 1).astype(np.int32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def logits_of(features):
    kernel = tf1.get_variable("dense/kernel", [8, 3], initializer=tf1.constant_initializer(0.02))
    bias = tf1.get_variable("dense/bias", [3], initializer=tf1.zeros_initializer())
    return tf1.matmul(features, kernel) + bias


def metric_fn(labels, logits):
    return {"accuracy": tf1.metrics.accuracy(labels, tf1.argmax(logits, 1))}


def make_model_fn(*, learning_rate=0.1, loss_fn=None, train_op_fn=None, spec_kwargs=None,
                  seen=None):
    """model_fn factory; `seen` (a list) receives (mode, params) of every call."""

    def model_fn(features, labels, mode, params):
        if seen is not None:
            seen.append((mode, dict(params), features.shape.as_list()))
        logits = logits_of(features)
        loss = (loss_fn or tf1.losses.sparse_softmax_cross_entropy)(labels, logits)
        train_op = None
        if mode == tpu.ModeKeys.TRAIN:
            optimizer = tf1.train.GradientDescentOptimizer(learning_rate)
            if params["use_tpu"]:
                optimizer = tpu.CrossShardOptimizer(optimizer)
            train_op = (train_op_fn(optimizer, loss) if train_op_fn
                        else optimizer.minimize(loss, tf1.train.get_global_step()))
        kwargs = {"eval_metrics": (metric_fn, [labels, logits])}
        kwargs.update(spec_kwargs(features, labels, logits, loss) if spec_kwargs else {})
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op, **kwargs)

    return model_fn


def make_estimator(model_dir, *, model_fn=None, replicas=0, iterations_per_loop=4,
                   train_batch_size=16, eval_batch_size=16, **run_config):
    config = tpu.RunConfig(
        model_dir=str(model_dir),
        tpu_config=tpu.TPUConfig(iterations_per_loop=iterations_per_loop,
                                 num_shards=replicas or None),
        **run_config)
    return tpu.TPUEstimator(model_fn=model_fn or make_model_fn(), config=config,
                            use_tpu=bool(replicas), train_batch_size=train_batch_size,
                            eval_batch_size=eval_batch_size)
