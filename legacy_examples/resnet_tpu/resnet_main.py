# Copyright 2018 The estimator-bridge Authors. Licensed under the Apache License, Version 2.0.
"""A small ResNet trained with TPUEstimator, in the style of the 2018 Cloud TPU ResNet-50.

What it keeps from that program: conv + `tf.layers.batch_normalization` blocks with identity and
projection shortcuts, the `UPDATE_OPS` control dependency for the moving averages, L2 weight
decay on every non-batch-norm variable, momentum SGD with a staircase exponential decay, and a
`host_call` that writes `tf.contrib.summary` scalars (learning rate, current epoch) from the
global step, evaluation after every `steps_per_eval` steps, and a few predictions at the end.
Images are scikit-learn's 8x8 digits, held in memory.

  python resnet_main.py --model_dir=/tmp/resnet --use_tpu=false --train_steps=40
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf
from sklearn import datasets

FLAGS = flags.FLAGS

flags.DEFINE_bool("use_tpu", default=True, help="Use TPU to execute the model for training and evaluation.")
flags.DEFINE_string("tpu", default=None, help="The Cloud TPU to use for training.")
flags.DEFINE_string("model_dir", default=None, help="The directory where the model and training/evaluation summaries are stored.")
flags.DEFINE_integer("resnet_width", default=16, help="Filters of the first block.")
flags.DEFINE_integer("train_steps", default=40, help="The number of steps to use for training.")
flags.DEFINE_integer("train_batch_size", default=32, help="Batch size for training.")
flags.DEFINE_integer("eval_batch_size", default=32, help="Batch size for evaluation.")
flags.DEFINE_integer("num_train_images", default=1536, help="Size of training data set.")
flags.DEFINE_integer("num_eval_images", default=256, help="Size of evaluation data set.")
flags.DEFINE_integer("steps_per_eval", default=40, help="Controls how often evaluation is performed.")
flags.DEFINE_integer("iterations_per_loop", default=10, help="Number of steps to run on TPU before outfeeding metrics to the CPU.")
flags.DEFINE_integer("num_cores", default=8, help="Number of TPU cores.")
flags.DEFINE_float("base_learning_rate", default=0.1, help="Base learning rate.")
flags.DEFINE_float("momentum", default=0.9, help="Momentum parameter used in the MomentumOptimizer.")
flags.DEFINE_float("weight_decay", default=1e-4, help="Weight decay coefficiant for l2 regularization.")
flags.DEFINE_bool("skip_host_call", default=False, help="Skip the host_call which is executed every training step.")
flags.DEFINE_integer("save_summary_steps", default=1, help="Estimator summaries every N steps.")
flags.DEFINE_integer("tf_random_seed", default=7, help="Graph-level random seed.")
flags.DEFINE_integer("num_predict_images", default=8, help="Evaluation images to classify at the end.")
flags.DEFINE_integer("predict_batch_size", default=8, help="Batch size for prediction.")

BATCH_NORM_DECAY = 0.9
BATCH_NORM_EPSILON = 1e-5
NUM_CLASSES = 10


def load_digits():
  digits = datasets.load_digits()
  order = np.random.RandomState(1).permutation(len(digits.target))
  images = (digits.images[order] / 16.0).astype(np.float32)[..., np.newaxis]
  labels = digits.target[order].astype(np.int32)
  return images, labels


class DigitsInput(object):
  """Generates the input_fn for training or evaluation."""

  def __init__(self, is_training):
    self.is_training = is_training
    images, labels = load_digits()
    if is_training:
      self.images, self.labels = images[:FLAGS.num_train_images], labels[:FLAGS.num_train_images]
    else:
      end = FLAGS.num_train_images + FLAGS.num_eval_images
      self.images, self.labels = images[FLAGS.num_train_images:end], labels[FLAGS.num_train_images:end]

  def input_fn(self, params):
    batch_size = params["batch_size"]
    dataset = tf.data.Dataset.from_tensor_slices((self.images, self.labels))
    if self.is_training:
      dataset = dataset.repeat()
    dataset = dataset.batch(batch_size, drop_remainder=True)
    dataset = dataset.prefetch(2)
    return dataset


def batch_norm_relu(inputs, is_training, relu=True, init_zero=False):
  """Performs a batch normalization followed by a ReLU."""
  gamma_initializer = tf.zeros_initializer() if init_zero else tf.ones_initializer()
  inputs = tf.layers.batch_normalization(
      inputs=inputs,
      axis=3,
      momentum=BATCH_NORM_DECAY,
      epsilon=BATCH_NORM_EPSILON,
      center=True,
      scale=True,
      training=is_training,
      fused=True,
      gamma_initializer=gamma_initializer)
  if relu:
    inputs = tf.nn.relu(inputs)
  return inputs


def conv2d(inputs, filters, kernel_size, strides):
  return tf.layers.conv2d(
      inputs=inputs, filters=filters, kernel_size=kernel_size, strides=strides,
      padding="SAME", use_bias=False,
      kernel_initializer=tf.variance_scaling_initializer())


def residual_block(inputs, filters, is_training, strides, use_projection=False):
  shortcut = inputs
  if use_projection:
    shortcut = conv2d(inputs, filters, kernel_size=1, strides=strides)
    shortcut = batch_norm_relu(shortcut, is_training, relu=False)
  inputs = conv2d(inputs, filters, kernel_size=3, strides=strides)
  inputs = batch_norm_relu(inputs, is_training)
  inputs = conv2d(inputs, filters, kernel_size=3, strides=1)
  inputs = batch_norm_relu(inputs, is_training, relu=False)
  return tf.nn.relu(inputs + shortcut)


def resnet_v1(inputs, is_training):
  width = FLAGS.resnet_width
  inputs = conv2d(inputs, width, kernel_size=3, strides=1)
  inputs = tf.identity(inputs, "initial_conv")
  inputs = batch_norm_relu(inputs, is_training)
  inputs = residual_block(inputs, width, is_training, strides=1)
  inputs = residual_block(inputs, 2 * width, is_training, strides=2, use_projection=True)
  inputs = tf.reduce_mean(inputs, [1, 2])
  inputs = tf.identity(inputs, "final_avg_pool")
  return tf.layers.dense(inputs, NUM_CLASSES, kernel_initializer=tf.random_normal_initializer(stddev=.01))


def resnet_model_fn(features, labels, mode, params):
  """The model_fn for ResNet to be used with TPUEstimator."""
  if isinstance(features, dict):
    features = features["feature"]

  logits = resnet_v1(features, is_training=(mode == tf.estimator.ModeKeys.TRAIN))

  if mode == tf.estimator.ModeKeys.PREDICT:
    predictions = {
        "classes": tf.argmax(logits, axis=1),
        "probabilities": tf.nn.softmax(logits, name="softmax_tensor"),
    }
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, predictions=predictions)

  batch_size = params["batch_size"]
  one_hot_labels = tf.one_hot(labels, NUM_CLASSES)
  cross_entropy = tf.losses.softmax_cross_entropy(logits=logits, onehot_labels=one_hot_labels)

  # Add weight decay to the loss for non-batch-normalization variables.
  loss = cross_entropy + FLAGS.weight_decay * tf.add_n(
      [tf.nn.l2_loss(v) for v in tf.trainable_variables()
       if "batch_normalization" not in v.name])

  host_call = None
  if mode == tf.estimator.ModeKeys.TRAIN:
    global_step = tf.train.get_global_step()
    steps_per_epoch = FLAGS.num_train_images / FLAGS.train_batch_size
    current_epoch = (tf.cast(global_step, tf.float32) / steps_per_epoch)
    learning_rate = tf.train.exponential_decay(
        FLAGS.base_learning_rate * (FLAGS.train_batch_size / 256.0) * 8,
        global_step, decay_steps=10, decay_rate=0.9, staircase=True)
    optimizer = tf.train.MomentumOptimizer(
        learning_rate=learning_rate, momentum=FLAGS.momentum, use_nesterov=True)
    if FLAGS.use_tpu:
      # When using TPU, wrap the optimizer with CrossShardOptimizer which
      # handles synchronization details between different TPU cores.
      optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)

    # Batch normalization requires UPDATE_OPS to be added as a dependency to
    # the train operation. current_epoch is pinned before the step too: on
    # the CPU path nothing else orders its read of global_step against the
    # increment (see the host_call below).
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops + [current_epoch]):
      train_op = optimizer.minimize(loss, global_step)

    if not FLAGS.skip_host_call:
      def host_call_fn(gs, lr, ce):
        """Training host call. Creates scalar summaries for training metrics.

        This function is executed on the CPU and should not directly reference
        any Tensors in the rest of the `model_fn`. To pass Tensors from the
        model to the `metric_fn`, provide as part of the `host_call`.

        Args:
          gs: `Tensor with shape `[batch]` for the global_step
          lr: `Tensor` with shape `[batch]` for the learning_rate.
          ce: `Tensor` with shape `[batch]` for the current_epoch.

        Returns:
          List of summary ops to run on the CPU host.
        """
        gs = gs[0]
        with tf.contrib.summary.create_file_writer(
            FLAGS.model_dir, max_queue=FLAGS.iterations_per_loop).as_default():
          with tf.contrib.summary.always_record_summaries():
            tf.contrib.summary.scalar("learning_rate", lr[0], step=gs)
            tf.contrib.summary.scalar("current_epoch", ce[0], step=gs)
            return tf.contrib.summary.all_summary_ops()

      # To log the current learning rate, and epoch for Tensorboard, the
      # summary op needs to be run on the host CPU via host_call. host_call
      # expects [batch_size, ...] Tensors, thus reshape to introduce a batch
      # dimension. These Tensors are implicitly concatenated to
      # [params['batch_size']].
      #
      # On TPU the host_call runs after train_op. On the CPU path
      # (use_tpu=False) TF 1.x fetches it in the same session.run as train_op
      # with nothing ordering the two, so a plain read of global_step here
      # races the increment (both pre- and post-update steps were observed).
      # Read it after train_op, as the TPU does, so every run tags the same step.
      with tf.control_dependencies([train_op]):
        gs_t = tf.reshape(global_step.read_value(), [1])
      lr_t = tf.reshape(learning_rate, [1])
      ce_t = tf.reshape(current_epoch, [1])
      host_call = (host_call_fn, [gs_t, lr_t, ce_t])
  else:
    train_op = None

  eval_metrics = None
  if mode == tf.estimator.ModeKeys.EVAL:
    def metric_fn(labels, logits):
      """Evaluation metric function. Evaluates accuracy."""
      predictions = tf.argmax(logits, axis=1)
      top_1_accuracy = tf.metrics.accuracy(labels, predictions)
      in_top_3 = tf.cast(tf.nn.in_top_k(logits, labels, 3), tf.float32)
      top_3_accuracy = tf.metrics.mean(in_top_3)
      return {
          "top_1_accuracy": top_1_accuracy,
          "top_3_accuracy": top_3_accuracy,
      }

    eval_metrics = (metric_fn, [labels, logits])

  del batch_size
  return tf.contrib.tpu.TPUEstimatorSpec(
      mode=mode,
      loss=loss,
      train_op=train_op,
      host_call=host_call,
      eval_metrics=eval_metrics)


def main(unused_argv):
  tf.logging.set_verbosity(tf.logging.INFO)
  tpu_cluster_resolver = None
  if FLAGS.use_tpu:
    tpu_cluster_resolver = tf.contrib.cluster_resolver.TPUClusterResolver(FLAGS.tpu)

  config = tf.contrib.tpu.RunConfig(
      cluster=tpu_cluster_resolver,
      model_dir=FLAGS.model_dir,
      save_checkpoints_steps=max(600, FLAGS.iterations_per_loop),
      save_summary_steps=FLAGS.save_summary_steps,
      tf_random_seed=FLAGS.tf_random_seed,
      tpu_config=tf.contrib.tpu.TPUConfig(
          iterations_per_loop=FLAGS.iterations_per_loop,
          num_shards=FLAGS.num_cores,
          per_host_input_for_training=tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2))

  resnet_classifier = tf.contrib.tpu.TPUEstimator(
      use_tpu=FLAGS.use_tpu,
      model_fn=resnet_model_fn,
      config=config,
      train_batch_size=FLAGS.train_batch_size,
      eval_batch_size=FLAGS.eval_batch_size,
      predict_batch_size=FLAGS.predict_batch_size)

  digits_train = DigitsInput(is_training=True)
  digits_eval = DigitsInput(is_training=False)

  current_step = 0
  while current_step < FLAGS.train_steps:
    # Train for up to steps_per_eval number of steps. At the end of training, a
    # checkpoint will be written to --model_dir.
    next_checkpoint = min(current_step + FLAGS.steps_per_eval, FLAGS.train_steps)
    resnet_classifier.train(input_fn=digits_train.input_fn, max_steps=next_checkpoint)
    current_step = next_checkpoint

    tf.logging.info("Starting to evaluate.")
    eval_results = resnet_classifier.evaluate(
        input_fn=digits_eval.input_fn,
        steps=FLAGS.num_eval_images // FLAGS.eval_batch_size)
    tf.logging.info("Eval results: %s" % eval_results)

  with tf.gfile.GFile(os.path.join(FLAGS.model_dir, "eval_results.txt"), "w") as writer:
    for key in sorted(eval_results):
      writer.write("%s = %s\n" % (key, str(eval_results[key])))

  if FLAGS.num_predict_images:
    predict_images = digits_eval.images[:FLAGS.num_predict_images]

    def predict_input_fn(params):
      dataset = tf.data.Dataset.from_tensor_slices({"feature": predict_images})
      return dataset.batch(params["batch_size"])

    with tf.gfile.GFile(os.path.join(FLAGS.model_dir, "predictions.tsv"), "w") as writer:
      writer.write("classes\t" + "\t".join("probabilities_%d" % i for i in range(NUM_CLASSES)) + "\n")
      for prediction in resnet_classifier.predict(predict_input_fn):
        writer.write("%d\t%s\n" % (prediction["classes"], "\t".join(
            str(p) for p in prediction["probabilities"])))


if __name__ == "__main__":
  app.run(main)
