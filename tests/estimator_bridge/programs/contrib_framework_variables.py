"""tf.contrib.framework's variable functions (the ones TF-Slim re-exported) inside a model_fn.

Fine-tuning trainers choose what to restore with `tf.contrib.framework.get_variables_to_restore
(exclude=[...])` and look variables up by name or suffix before `assign_from_checkpoint_fn`. model_fn
records what each function returns (variable names, in order); after one training step the program
prints them with the trained head's values as JSON.
"""

import json
import sys

import numpy as np
import tensorflow as tf

FOUND = {}


def model_fn(features, labels, mode):
  with tf.variable_scope("net"):
    hidden = tf.layers.dense(features, 3, name="body", kernel_initializer=tf.constant_initializer(0.25))
    logits = tf.layers.dense(hidden, 1, name="head", kernel_initializer=tf.constant_initializer(0.5))
  framework = tf.contrib.framework
  names = lambda variables: [v.op.name for v in variables]
  FOUND["to_restore"] = names(framework.get_variables_to_restore(exclude=["net/head", "global_step"]))
  FOUND["to_restore_included"] = names(framework.get_variables_to_restore(include=["net/head"]))
  FOUND["by_name"] = names(framework.get_variables_by_name("bias"))
  FOUND["by_suffix"] = names(framework.get_variables_by_suffix("kernel", scope="net/body"))
  FOUND["unique"] = framework.get_unique_variable("net/head/kernel").op.name
  FOUND["full_name"] = framework.get_variable_full_name(framework.get_unique_variable("net/body/bias"))
  loss = tf.reduce_mean(tf.square(logits[:, 0] - labels))
  optimizer = tf.train.GradientDescentOptimizer(0.05)
  train_op = optimizer.minimize(loss, tf.train.get_global_step(),
                                var_list=framework.get_variables_to_restore(include=["net/head"]))
  return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
  x = np.arange(8, dtype=np.float32).reshape(4, 2) / 8
  return tf.data.Dataset.from_tensor_slices((x, x.sum(1))).repeat().batch(2)


def main(model_dir):
  estimator = tf.estimator.Estimator(model_fn, model_dir=model_dir)
  estimator.train(input_fn, steps=1)
  FOUND["variables"] = {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                        for name in sorted(estimator.get_variable_names()) if name.startswith("net/")}
  print(json.dumps(FOUND))


if __name__ == "__main__":
  main(sys.argv[1])
