"""A 2018 TPU model_fn with pieces migrate cannot rewrite (contrib without equivalent) beside slim."""

import tensorflow as tf
from tensorflow.contrib import slim
from tensor2tensor.layers import common_layers

FLAGS = tf.flags.FLAGS


def sequence_loss(logits, tags, lengths):
  # Findings inside a statement spanning several lines: the marker goes above its first line.
  log_likelihood = tf.contrib.seq2seq.sequence_loss(
      logits, tags,
      tf.contrib.layers.l2_regularizer(1e-4)(lengths))
  total = tf.reduce_sum(log_likelihood) + \
      tf.contrib.layers.l2_regularizer(1e-4)(logits)
  return -total


def tower(images, is_training):
  if is_training: images = tf.contrib.image.sparse_image_warp(images, src, dst)[0]
  with slim.arg_scope([slim.conv2d], padding="SAME"):
    net = slim.nets.vgg.vgg_a(images, num_classes=32, is_training=is_training)[0]
    net = tf.contrib.seq2seq.hardmax(common_layers.flatten4d3d(net))
  return tf.layers.dense(tf.layers.flatten(net), 10)


def decode(scores, transitions):
  # estimator-migrate: MIG301 `tf.contrib.graph_editor.reroute_ts` was removed with tf.contrib and has no equivalent that migrate knows (hint: see the TF 2 migration guide for the replacement, or keep this file on TensorFlow 1.15)
  return tf.contrib.graph_editor.reroute_ts(scores, transitions)
