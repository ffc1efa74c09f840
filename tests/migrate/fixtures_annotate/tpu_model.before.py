"""A 2018 TPU model_fn with pieces migrate cannot rewrite (contrib without equivalent, slim)."""

import tensorflow as tf
from tensorflow.contrib import slim

FLAGS = tf.flags.FLAGS


def crf_loss(logits, tags, lengths):
  # Findings inside a statement spanning several lines: the marker goes above its first line.
  log_likelihood, _ = tf.contrib.crf.crf_log_likelihood(
      logits, tags,
      tf.contrib.layers.l2_regularizer(1e-4)(lengths))
  total = tf.reduce_sum(log_likelihood) + \
      tf.contrib.layers.l2_regularizer(1e-4)(logits)
  return -total


def tower(images, is_training):
  if is_training: images = tf.contrib.image.rotate(images, 0.1)
  with slim.arg_scope([slim.conv2d], padding="SAME"):
    net = slim.conv2d(images, 32, [3, 3])
  return tf.layers.dense(tf.layers.flatten(net), 10)


def hparams():
  # estimator-migrate: MIG202 `tf.contrib.training.HParams` was removed with tf.contrib and TensorFlow has no equivalent (hint: use a dataclass or types.SimpleNamespace for attribute access; parse()/values()/to_json() need code)
  return tf.contrib.training.HParams(learning_rate=0.1)
