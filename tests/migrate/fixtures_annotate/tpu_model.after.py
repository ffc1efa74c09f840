"""A 2018 TPU model_fn with pieces migrate cannot rewrite (contrib without equivalent) beside slim."""

import tensorflow as tf
from tensor2tensor.layers import common_layers
import estimator_bridge.compat.contrib_arg_scope
import estimator_bridge.compat.contrib_helpers
import estimator_bridge.compat.contrib_layers
import tf_slim.nets

FLAGS = tf.compat.v1.flags.FLAGS


def sequence_loss(logits, tags, lengths):
  # Findings inside a statement spanning several lines: the marker goes above its first line.
  # estimator-migrate: MIG301 `tf.contrib.seq2seq.sequence_loss` was removed with tf.contrib and has no equivalent that migrate knows (hint: tfa.seq2seq (tensorflow-addons, TF <= 2.15) or a hand-written tf.while_loop decoder)
  log_likelihood = tf.contrib.seq2seq.sequence_loss(
      logits, tags,
      estimator_bridge.compat.contrib_helpers.l2_regularizer(1e-4)(lengths))
  total = tf.reduce_sum(log_likelihood) + \
      estimator_bridge.compat.contrib_helpers.l2_regularizer(1e-4)(logits)
  return -total


def tower(images, is_training):
  # estimator-migrate: MIG301 `tf.contrib.image.sparse_image_warp` was removed with tf.contrib and has no equivalent that migrate knows (hint: see the TF 2 migration guide for the replacement, or keep this file on TensorFlow 1.15)
  if is_training: images = tf.contrib.image.sparse_image_warp(images, src, dst)[0]
  with estimator_bridge.compat.contrib_arg_scope.arg_scope([estimator_bridge.compat.contrib_layers.conv2d], padding="SAME"):
    net = tf_slim.nets.vgg.vgg_a(images, num_classes=32, is_training=is_training)[0]
    # estimator-migrate: MIG301 `tf.contrib.seq2seq.hardmax` was removed with tf.contrib and has no equivalent that migrate knows (hint: tfa.seq2seq (tensorflow-addons, TF <= 2.15) or a hand-written tf.while_loop decoder)
    # estimator-migrate: MIG303 `tensor2tensor.layers.common_layers.flatten4d3d`: tensor2tensor is not migrated (a TF1-era library, deprecated and archived); its models, layers and trainer build TF1 graphs with tf.contrib (hint: its pure-Python helpers (text_encoder, tokenizer, registry) keep working where tensor2tensor itself still imports; port models and training code to Keras (or trax), or keep this file on TensorFlow 1.15)
    net = tf.contrib.seq2seq.hardmax(common_layers.flatten4d3d(net))
  return estimator_bridge.layers.dense(estimator_bridge.layers.flatten(net), 10)


def decode(scores, transitions):
  # estimator-migrate: MIG301 `tf.contrib.graph_editor.reroute_ts` was removed with tf.contrib and has no equivalent that migrate knows (hint: see the TF 2 migration guide for the replacement, or keep this file on TensorFlow 1.15)
  # estimator-migrate: MIG301 `tf.contrib.graph_editor.reroute_ts` was removed with tf.contrib and has no equivalent that migrate knows (hint: nothing in TF 2: build the graph with the replacement tensors directly, or rewire a GraphDef with tf.compat.v1.import_graph_def(graph_def, input_map={name: tensor}))
  return tf.contrib.graph_editor.reroute_ts(scores, transitions)
