"""A tf.layers + batch norm + Adam program whose TF 1.15 run repeats itself exactly, but whose
numbers depend on float rounding, for verify's own tests (not an example).

The model and schedule are tensorflow/tpu's mnist_tpuestimator notebook (2019) on 512 generated
digits: bias-free convolutions and a bias-free dense layer, each followed by batch normalization
(centered, not scaled), Adam on 0.0001 + exponential_decay(0.01, step, 250, 1/e), global batch
256. In TF 1.15 a few of the dense layer's weights get gradients that are zero in exact
arithmetic (Adam's second moment ~5e-15 in the notebook): rounding noise, which Adam, dividing a
gradient by its own running magnitude, turns into full learning-rate steps; batch norm's moving
statistics follow, and so does the evaluation (which normalizes with them). A TensorFlow that rounds otherwise -- the same
TensorFlow on another number of threads, or another TensorFlow -- lands elsewhere, and only a
judge that has seen the oracle move under such a change can tell this from a real difference.

  python adam_batch_norm.py --model_dir=DIR --train_steps=18 [--learning_rate=0.01]
"""

from __future__ import absolute_import, division, print_function

import argparse
import math
import os

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--model_dir", required=True)
parser.add_argument("--train_steps", type=int, default=18)
parser.add_argument("--learning_rate", type=float, default=0.01)
parser.add_argument("--batch_size", type=int, default=256)


def make_data(count=512):
  """28x28 digits as training-data-analyst's idx files hold them (testbed/generators/mnist_idx.py):
  noise everywhere and a bright bar whose row is the label, scaled by 1/256 as the notebook does."""
  rng = np.random.RandomState(0)
  labels = rng.randint(0, 10, size=count)
  pictures = rng.randint(0, 40, size=(count, 28, 28)).astype(np.uint8)
  for picture, label in zip(pictures, labels):
    picture[2 + 2 * int(label):5 + 2 * int(label), 4:24] = 255
  return pictures.reshape(count, 28 * 28).astype(np.float32) / 256.0, labels.astype(np.int32)


def input_fn_for(x, y, repeat):
  def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((x, y))
    if repeat:
      dataset = dataset.repeat()
    return dataset.batch(params["batch_size"], drop_remainder=True)
  return input_fn


def model_fn(features, labels, mode, params):
  training = mode == tf.estimator.ModeKeys.TRAIN
  y = tf.reshape(features, [-1, 28, 28, 1])
  for filters, size, strides in ((6, 3, 1), (12, 6, 2), (24, 6, 2)):  # as the notebook
    y = tf.layers.Conv2D(filters, size, strides=strides, padding="same", use_bias=False)(y)
    y = tf.nn.relu(tf.layers.BatchNormalization(scale=False, center=True)(y, training=training))
  y = tf.layers.Dense(200, use_bias=False)(tf.layers.Flatten()(y))
  y = tf.nn.relu(tf.layers.BatchNormalization(scale=False, center=True)(y, training=training))
  logits = tf.layers.Dense(10, name="logits")(y)
  if mode == tf.estimator.ModeKeys.PREDICT:
    return tf.contrib.tpu.TPUEstimatorSpec(mode, predictions={"probabilities": tf.nn.softmax(logits)})
  loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
  if mode == tf.estimator.ModeKeys.EVAL:
    def metric_fn(labels, logits):
      return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, axis=1))}
    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, eval_metrics=(metric_fn, [labels, logits]))
  step = tf.train.get_or_create_global_step()
  rate = 0.0001 + tf.train.exponential_decay(params["learning_rate"], step, 250, 1 / math.e)
  optimizer = tf.train.AdamOptimizer(rate)
  # batch norm's moving averages update with each step, as tf.contrib.training.create_train_op does
  train_op = tf.contrib.training.create_train_op(loss, optimizer)
  return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)


def main():
  args = parser.parse_args()
  x, y = make_data()
  config = tf.contrib.tpu.RunConfig(
      model_dir=args.model_dir, save_summary_steps=1, save_checkpoints_steps=100, tf_random_seed=1,
      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=3))
  estimator = tf.contrib.tpu.TPUEstimator(
      model_fn=model_fn, config=config, use_tpu=False, train_batch_size=args.batch_size,
      eval_batch_size=args.batch_size, predict_batch_size=args.batch_size,
      params={"learning_rate": args.learning_rate})
  estimator.train(input_fn_for(x, y, repeat=True), max_steps=args.train_steps)
  estimator.evaluate(input_fn_for(x, y, repeat=False), steps=2)
  with open(os.path.join(args.model_dir, "predictions.tsv"), "w") as out:
    for row in estimator.predict(input_fn_for(x[:256], y[:256], repeat=False)):
      out.write("\t".join("%.9g" % p for p in row["probabilities"][:3]) + "\n")


if __name__ == "__main__":
  main()
