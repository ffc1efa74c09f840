"""`tf.contrib.layers.optimize_loss` builds a model_fn's train_op (TF 1.15's contrib, 2017-2018 style).

The optimizer by name ("Adam", "SGD"), with gradient clipping, a learning-rate decay function, the
update ops of batch normalisation and its default summaries. Trains 3 steps and prints the variables
(and the loss of each step) as JSON.
"""

import json
import sys

import numpy as np
import tensorflow as tf

OPTIMIZER = sys.argv[2]
LOSSES = []


class LossHook(tf.train.SessionRunHook):
  def __init__(self, loss):
    self.loss = loss

  def before_run(self, run_context):
    return tf.train.SessionRunArgs(self.loss)

  def after_run(self, run_context, run_values):
    LOSSES.append(float(run_values.results))


def model_fn(features, labels, mode):
  hidden = tf.layers.dense(features, 4, name="hidden", kernel_initializer=tf.constant_initializer(0.3))
  hidden = tf.layers.batch_normalization(hidden, training=True, name="bn")
  logits = tf.layers.dense(hidden, 1, name="out", kernel_initializer=tf.constant_initializer(-0.2))
  loss = tf.reduce_mean(tf.square(logits[:, 0] - labels))
  with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
    train_op = tf.contrib.layers.optimize_loss(
        loss=loss, global_step=tf.train.get_global_step(), learning_rate=0.05, optimizer=OPTIMIZER,
        clip_gradients=0.5,
        learning_rate_decay_fn=lambda lr, step: tf.train.exponential_decay(lr, step, 1, 0.5))
  return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[LossHook(loss)])


def input_fn():
  x = np.arange(12, dtype=np.float32).reshape(4, 3) / 6
  return tf.data.Dataset.from_tensor_slices((x, x.sum(1) - 1)).repeat().batch(2)


def main(model_dir):
  estimator = tf.estimator.Estimator(model_fn, model_dir=model_dir)
  estimator.train(input_fn, steps=3)
  print(json.dumps({"losses": LOSSES,
                    "names": sorted(tf.contrib.layers.OPTIMIZER_CLS_NAMES),
                    "variables": {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                                  for name in sorted(estimator.get_variable_names())}}))


if __name__ == "__main__":
  main(sys.argv[1])
