"""Keras layers inside a TPUEstimator model_fn (the official MNIST TPU model's style, 2019-2021).

TF 1.15's graph-mode Keras named the layers' variables by layer name scope (`conv2d/kernel`,
`dense_1/bias`) and Adam's slots after them (`dense/kernel/Adam`), so checkpoints of such a
model_fn resume and warm-start from those names.

  python keras_layers_model_fn.py --model_dir=DIR --train_steps=N [--warm_start_from=DIR]

prints one JSON line: eval loss, and every checkpoint variable's name, shape and values summary.
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_string("model_dir", None, "Model directory.")
flags.DEFINE_integer("train_steps", 4, "Global step to train to.")
flags.DEFINE_string("warm_start_from", None, "A model_dir to warm-start from.")
flags.DEFINE_bool("batch_norm", False, "Add a tf.keras BatchNormalization layer (see the test).")
flags.DEFINE_bool("contrib_input", False, "tensorflow/tpu cifar_keras's spelling: the layers of "
                  "tf.contrib.keras through a local alias, on layers.Input(tensor=features).")
FLAGS = flags.FLAGS

BATCH = 8


def input_fn(params):
  data = np.random.RandomState(0)
  images = data.rand(64, 6, 6, 1).astype(np.float32)
  labels = (images.mean(axis=(1, 2, 3)) * 30).astype(np.int32) % 3
  dataset = tf.data.Dataset.from_tensor_slices((images, labels)).repeat()
  return dataset.batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
  if FLAGS.contrib_input:
    layers = tf.contrib.keras.layers
    net = layers.Input(tensor=features)
  else:
    layers = tf.keras.layers
    net = features
  net = layers.Conv2D(4, 3, activation="relu")(net)
  net = layers.Conv2D(4, 3, activation="relu")(net)
  net = layers.Flatten()(net)
  net = layers.Dense(8, activation="relu")(net)
  if FLAGS.batch_norm:
    # TF 1.15 never ran this layer's moving-average updates: called in a model_fn, Keras put
    # them in `layer.updates`, not in UPDATE_OPS. Keras 3 assigns them during the call.
    net = tf.keras.layers.BatchNormalization()(net, training=mode == tf.estimator.ModeKeys.TRAIN)
  logits = tf.keras.layers.Dense(3)(net)
  loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
  if mode == tf.estimator.ModeKeys.EVAL:
    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss)
  optimizer = tf.train.AdamOptimizer(0.01)
  with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
    train_op = optimizer.minimize(loss, tf.train.get_global_step())
  return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)


def main(argv):
  del argv
  config = tf.contrib.tpu.RunConfig(
      model_dir=FLAGS.model_dir, tf_random_seed=1, save_checkpoints_steps=1000,
      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
  estimator = tf.contrib.tpu.TPUEstimator(
      model_fn=model_fn, config=config, use_tpu=False, train_batch_size=BATCH, eval_batch_size=BATCH,
      warm_start_from=FLAGS.warm_start_from)
  estimator.train(input_fn, max_steps=FLAGS.train_steps)
  evaluation = estimator.evaluate(input_fn, steps=2)
  reader = tf.train.load_checkpoint(estimator.latest_checkpoint())
  variables = {}
  for name, shape in sorted(reader.get_variable_to_shape_map().items()):
    value = np.asarray(reader.get_tensor(name), dtype=np.float64)
    variables[name] = {"shape": list(shape), "first": value.ravel()[:4].tolist(),
                       "norm": float(np.sqrt(np.sum(value ** 2)))}
  print(json.dumps({"eval_loss": float(evaluation["loss"]), "global_step": int(evaluation["global_step"]),
                    "variables": variables}))


if __name__ == "__main__":
  tf.app.run()
