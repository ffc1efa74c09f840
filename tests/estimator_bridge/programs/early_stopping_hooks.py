"""tf.estimator.experimental's early-stopping hooks on an Estimator (TF 1.15 program, run unchanged).

Three train/evaluate rounds write evaluations at steps 2, 4 and 6 whose metric `m` (the mean
global step) only grows; then one train(steps=10) per hook, each in a fresh model_dir holding a
copy of those evaluations (TF 1.15's hook adds a variable, signal_early_stopping/STOP, that the
first model_dir's checkpoints lack), with the hook checking after every step or every 3rd. Prints the global step each train() stopped
at and the evaluations the hooks read, as JSON.
"""

import json
import shutil
import sys

import numpy as np
import tensorflow as tf


def model_fn(features, labels, mode):
  w = tf.get_variable("w", [1], initializer=tf.zeros_initializer())
  loss = tf.reduce_mean(tf.square(features * w - labels))
  step = tf.train.get_global_step()
  train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, step)
  metrics = {"m": tf.metrics.mean(tf.cast(step, tf.float32))}
  return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)


def input_fn():
  x = np.arange(8, dtype=np.float32)
  return tf.data.Dataset.from_tensor_slices((x, 2 * x)).repeat().batch(4)


def hooks(estimator):
  contrib = tf.estimator.experimental  # tf.contrib.estimator in TF 1.10-1.12
  return {
      # best m at step 2; 6 - 2 >= 4: stop at the first check
      "no_decrease": contrib.stop_if_no_decrease_hook(
          estimator, "m", max_steps_without_decrease=4, run_every_secs=None, run_every_steps=1),
      # m grew at every evaluation: never stops
      "no_increase": contrib.stop_if_no_increase_hook(
          estimator, "m", max_steps_without_increase=4, run_every_secs=None, run_every_steps=1),
      "higher": contrib.stop_if_higher_hook(
          estimator, "m", 5.0, run_every_secs=None, run_every_steps=1),
      # evaluations before min_steps do not count: never below 3 from step 4 on
      "lower": contrib.stop_if_lower_hook(
          estimator, "m", 3.0, min_steps=4, run_every_secs=None, run_every_steps=1),
      # every 3rd step: the first check is at step 1, stops there
      "no_decrease_every_3": contrib.stop_if_no_decrease_hook(
          estimator, "m", max_steps_without_decrease=4, run_every_secs=None, run_every_steps=3),
  }


def main(model_dir):
  base = tf.estimator.Estimator(model_fn, model_dir=model_dir)
  for _ in range(3):
    base.train(input_fn, steps=2)
    base.evaluate(input_fn, steps=1)
  stopped = {}
  for name in sorted(hooks(base)):
    copy = model_dir + "_" + name
    shutil.copytree(model_dir + "/eval", copy + "/eval")
    estimator = tf.estimator.Estimator(model_fn, model_dir=copy)
    estimator.train(input_fn, steps=10, hooks=[hooks(estimator)[name]])
    stopped[name] = int(estimator.get_variable_value("global_step"))
  print(json.dumps({"stopped": stopped}))


if __name__ == "__main__":
  main(sys.argv[1])
