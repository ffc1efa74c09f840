"""A tiny tf.contrib.tpu classifier whose evaluation holds examples exactly on the decision boundary,
for verify's escalation test (not an example).

A linear two-class classifier without bias in a TPUEstimator (use_tpu=False), trained to
max_steps and evaluated on 60 training points plus 4 all-zero points labelled 0: their logits
are exactly (0, 0), so `tf.argmax` (the first of equal values) counts them right, and any other
tie-break counts 4 of 64 wrong with the same loss -- an accuracy that flips while every loss
stays put.

  python tied_logits.py --model_dir=DIR --train_steps=10 [--learning_rate=0.1]
"""

from __future__ import absolute_import, division, print_function

import argparse

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--model_dir", required=True)
parser.add_argument("--train_steps", type=int, default=10)
parser.add_argument("--learning_rate", type=float, default=0.1)

BATCH = 16
TIED = 4


def make_data(count=64):
  """Points in 2 dimensions labelled by the side of a fixed line through the origin."""
  rng = np.random.RandomState(0)
  x = rng.normal(size=(count, 2)).astype(np.float32)
  return x, (x.dot(np.array([1.0, -0.5], np.float32)) > 0).astype(np.int32)


def input_fn_for(x, y, repeat):
  def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((x, y))
    if repeat:
      dataset = dataset.repeat()
    return dataset.batch(params["batch_size"], drop_remainder=True)
  return input_fn


def model_fn(features, labels, mode, params):
  logits = tf.layers.dense(features, 2, use_bias=False, name="logits")
  loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
  if mode == tf.estimator.ModeKeys.EVAL:
    def metric_fn(labels, logits):
      return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, axis=1))}
    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, eval_metrics=(metric_fn, [labels, logits]))
  optimizer = tf.train.GradientDescentOptimizer(params["learning_rate"])
  train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
  return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)


def main():
  args = parser.parse_args()
  x, y = make_data()
  config = tf.contrib.tpu.RunConfig(
      model_dir=args.model_dir, save_summary_steps=1, tf_random_seed=1,
      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=5))
  estimator = tf.contrib.tpu.TPUEstimator(
      model_fn=model_fn, config=config, use_tpu=False, train_batch_size=BATCH, eval_batch_size=BATCH,
      params={"learning_rate": args.learning_rate})
  estimator.train(input_fn_for(x, y, repeat=True), max_steps=args.train_steps)
  eval_x = np.concatenate([x[:len(x) - TIED], np.zeros((TIED, 2), np.float32)])
  eval_y = np.concatenate([y[:len(y) - TIED], np.zeros(TIED, np.int32)])
  estimator.evaluate(input_fn_for(eval_x, eval_y, repeat=False), steps=len(eval_x) // BATCH)


if __name__ == "__main__":
  main()
