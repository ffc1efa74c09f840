"""contrib_classifier.py with google-research/bert's way of stepping, for verify's own tests.

BERT's optimization.py reads the global step for its learning-rate warm-up and increments the
step with its own `global_step.assign(global_step + 1)`, grouped with the weight updates but
not ordered against the schedule's read: in TF 1.15 (a ref variable whose snapshot aliases its
buffer) the schedule sees step or step + 1 by thread timing. This program does the same with a
warm-up over 10 steps, so each order gives other numbers.

  python racy_schedule.py --model_dir=DIR --train_steps=12 [--learning_rate=0.1]
"""

from __future__ import absolute_import, division, print_function

import argparse
import os

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--model_dir", required=True)
parser.add_argument("--train_steps", type=int, default=20)
parser.add_argument("--learning_rate", type=float, default=0.1)
parser.add_argument("--batch_size", type=int, default=16)
parser.add_argument("--dropout", type=float, default=0.0)
parser.add_argument("--seed", type=int, default=1, help="graph seed; -1 leaves the graph unseeded")
parser.add_argument("--shuffle_eval", action="store_true",
                    help="shuffle the evaluation records unseeded and evaluate 4 of 16 batches, as "
                         "tensorflow/tpu's imagenet_input.py did (a random evaluation)")


def make_data(count=256):
  """Points in 6 dimensions labelled by which of 3 fixed directions they lean to most."""
  rng = np.random.RandomState(0)
  x = rng.normal(size=(count, 6)).astype(np.float32)
  directions = rng.normal(size=(6, 3)).astype(np.float32)
  return x, np.argmax(x.dot(directions), axis=1).astype(np.int32)


def input_fn_for(x, y, repeat, shuffle=False):
  def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((x, y))
    if shuffle:
      dataset = dataset.shuffle(1024)
    if repeat:
      dataset = dataset.repeat()
    return dataset.batch(params["batch_size"], drop_remainder=True)
  return input_fn


def model_fn(features, labels, mode, params):
  hidden = tf.layers.dense(features, 16, activation=tf.nn.relu, name="hidden")
  if mode == tf.estimator.ModeKeys.TRAIN and params["dropout"] > 0:
    hidden = tf.nn.dropout(hidden, rate=params["dropout"])
  logits = tf.layers.dense(hidden, 3, name="logits")
  if mode == tf.estimator.ModeKeys.PREDICT:
    return tf.contrib.tpu.TPUEstimatorSpec(mode, predictions={"probabilities": tf.nn.softmax(logits)})
  loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
  if mode == tf.estimator.ModeKeys.EVAL:
    def metric_fn(labels, logits):
      return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, axis=1))}
    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, eval_metrics=(metric_fn, [labels, logits]))
  global_step = tf.train.get_or_create_global_step()
  warmup = tf.minimum(1.0, (tf.cast(global_step, tf.float32) + 1.0) / 10.0)
  optimizer = tf.train.GradientDescentOptimizer(params["learning_rate"] * warmup)
  train_op = optimizer.apply_gradients(optimizer.compute_gradients(loss))
  # as BERT: the step is incremented by hand, grouped with the updates, ordered with nothing
  train_op = tf.group(train_op, [global_step.assign(global_step + 1)])
  return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)


def main():
  args = parser.parse_args()
  x, y = make_data()
  config = tf.contrib.tpu.RunConfig(
      model_dir=args.model_dir, save_summary_steps=1, save_checkpoints_steps=10,
      tf_random_seed=None if args.seed < 0 else args.seed,
      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=5))
  estimator = tf.contrib.tpu.TPUEstimator(
      model_fn=model_fn, config=config, use_tpu=False, train_batch_size=args.batch_size,
      eval_batch_size=args.batch_size, predict_batch_size=args.batch_size,
      params={"learning_rate": args.learning_rate, "dropout": args.dropout})
  estimator.train(input_fn_for(x, y, repeat=True), max_steps=args.train_steps)
  estimator.evaluate(input_fn_for(x, y, repeat=False, shuffle=args.shuffle_eval), steps=4)
  with open(os.path.join(args.model_dir, "predictions.tsv"), "w") as out:
    for row in estimator.predict(input_fn_for(x[:32], y[:32], repeat=False)):
      out.write("\t".join("%.9g" % p for p in row["probabilities"]) + "\n")


if __name__ == "__main__":
  main()
