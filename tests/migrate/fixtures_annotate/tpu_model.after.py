"""A 2018 TPU model_fn with pieces migrate cannot rewrite (contrib without equivalent, slim)."""

import tensorflow as tf
from tensorflow.contrib import slim
import estimator_bridge

FLAGS = tf.compat.v1.flags.FLAGS


def crf_loss(logits, tags, lengths):
  # Findings inside a statement spanning several lines: the marker goes above its first line.
  # estimator-migrate: MIG301 `tf.contrib.crf.crf_log_likelihood` was removed with tf.contrib and has no equivalent that migrate knows (hint: see the TF 2 migration guide for the replacement, or keep this file on TensorFlow 1.15)
  # estimator-migrate: MIG205 `tf.contrib.layers.l2_regularizer` computed scale * tf.nn.l2_loss(w) = scale * sum(w**2) / 2 (hint: use `lambda w: scale * tf.nn.l2_loss(w)` (tf.keras.regularizers.L2(scale / 2) rounds differently))
  log_likelihood, _ = tf.contrib.crf.crf_log_likelihood(
      logits, tags,
      tf.contrib.layers.l2_regularizer(1e-4)(lengths))
  # estimator-migrate: MIG205 `tf.contrib.layers.l2_regularizer` computed scale * tf.nn.l2_loss(w) = scale * sum(w**2) / 2 (hint: use `lambda w: scale * tf.nn.l2_loss(w)` (tf.keras.regularizers.L2(scale / 2) rounds differently))
  total = tf.reduce_sum(log_likelihood) + \
      tf.contrib.layers.l2_regularizer(1e-4)(logits)
  return -total


def tower(images, is_training):
  # estimator-migrate: MIG301 `tf.contrib.image.rotate` was removed with tf.contrib and has no equivalent that migrate knows (hint: see the TF 2 migration guide for the replacement, or keep this file on TensorFlow 1.15)
  if is_training: images = tf.contrib.image.rotate(images, 0.1)
  # estimator-migrate: MIG302 `tf.contrib.slim.arg_scope` (TF-Slim) is not part of TensorFlow 2 (hint: use the tf_slim package or Keras layers)
  # estimator-migrate: MIG302 `tf.contrib.slim.conv2d` (TF-Slim) is not part of TensorFlow 2 (hint: use the tf_slim package or Keras layers)
  with slim.arg_scope([slim.conv2d], padding="SAME"):
    # estimator-migrate: MIG302 `tf.contrib.slim.conv2d` (TF-Slim) is not part of TensorFlow 2 (hint: use the tf_slim package or Keras layers)
    net = slim.conv2d(images, 32, [3, 3])
  return estimator_bridge.layers.dense(estimator_bridge.layers.flatten(net), 10)


def hparams():
  # estimator-migrate: MIG202 `tf.contrib.training.HParams` was removed with tf.contrib and TensorFlow has no equivalent (hint: use a dataclass or types.SimpleNamespace for attribute access; parse()/values()/to_json() need code)
  return tf.contrib.training.HParams(learning_rate=0.1)
