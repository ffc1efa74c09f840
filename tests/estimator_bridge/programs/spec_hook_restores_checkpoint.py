"""A model_fn's training hook restores pretrained weights (TF-Slim fine-tuning style), then trains.

model_fn builds `slim.assign_from_checkpoint_fn(pretrained, variables)` (a Saver over the
variables model_fn just created) and returns a hook that calls it in after_create_session when
the global step is 0, as 2018 fine-tuning trainers did. Prints the variables after 2 steps.
"""

import json
import sys

import numpy as np
import tensorflow as tf
import tensorflow.contrib.slim as slim

PRETRAINED = sys.argv[2]


class RestoreHook(tf.train.SessionRunHook):
  def __init__(self, init_fn):
    self.init_fn = init_fn

  def after_create_session(self, session, coord=None):
    if session.run(tf.train.get_or_create_global_step()) == 0:
      self.init_fn(session)


def model_fn(features, labels, mode):
  with tf.variable_scope("net"):
    hidden = tf.layers.dense(features, 3, name="body")
    logits = tf.layers.dense(hidden, 1, name="head", kernel_initializer=tf.constant_initializer(0.5))
  loss = tf.reduce_mean(tf.square(logits[:, 0] - labels))
  restore = slim.assign_from_checkpoint_fn(
      PRETRAINED, slim.get_variables_to_restore(exclude=["net/head", "global_step"]))
  train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss, tf.train.get_global_step())
  return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                    training_hooks=[RestoreHook(restore)])


def input_fn():
  x = np.arange(8, dtype=np.float32).reshape(4, 2) / 8
  return tf.data.Dataset.from_tensor_slices((x, x.sum(1))).repeat().batch(2)


def main(model_dir):
  estimator = tf.estimator.Estimator(model_fn, model_dir=model_dir)
  estimator.train(input_fn, steps=2)
  print(json.dumps({name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                    for name in sorted(estimator.get_variable_names()) if name.startswith("net/")}))


if __name__ == "__main__":
  main(sys.argv[1])
