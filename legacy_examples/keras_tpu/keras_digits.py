# Copyright 2018 The estimator-bridge Authors. Licensed under the Apache License, Version 2.0.
"""A Keras digits classifier the 2018 way: `keras_to_tpu_model` when on a TPU, plain Keras else.

As in the Cloud TPU Keras colabs of TF 1.11-1.13: a `tf.keras` Sequential model compiled as
usual, converted with `tf.contrib.tpu.keras_to_tpu_model(model, strategy=TPUDistributionStrategy)`
behind `if use_tpu:`, then `model.fit` on a `tf.data` pipeline with `steps_per_epoch`, a
`LossHistory` callback (the Keras documentation's example) recording the loss of every batch,
`evaluate` and `predict`. Initial weights can be saved to / loaded from a numpy file, so that
another Keras can start from exactly the same values.

  python keras_digits.py --model_dir=/tmp/keras --use_tpu=false --epochs=3
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

import numpy as np
import tensorflow as tf
from sklearn import datasets

flags = tf.app.flags
flags.DEFINE_string("model_dir", None, "Where the results are written.")
flags.DEFINE_string("tpu", None, "Name of the Cloud TPU.")
flags.DEFINE_bool("use_tpu", True, "Convert the model with keras_to_tpu_model.")
flags.DEFINE_integer("batch_size", 32, "Global batch size.")
flags.DEFINE_integer("steps_per_epoch", 10, "Training steps per epoch.")
flags.DEFINE_integer("epochs", 3, "Number of epochs.")
flags.DEFINE_integer("eval_steps", 4, "Evaluation steps.")
flags.DEFINE_float("learning_rate", 0.01, "Adam learning rate.")
flags.DEFINE_integer("seed", 3, "Graph-level seed for the initial weights.")
flags.DEFINE_string("initial_weights", None,
                    "A .npz file of initial weights: loaded when it exists, written otherwise.")
FLAGS = flags.FLAGS

NUM_TRAIN = 1536


def load_digits():
  digits = datasets.load_digits()
  order = np.random.RandomState(2).permutation(len(digits.target))
  images = (digits.images[order] / 16.0).astype(np.float32)[..., np.newaxis]
  labels = digits.target[order].astype(np.int32)
  return (images[:NUM_TRAIN], labels[:NUM_TRAIN]), (images[NUM_TRAIN:], labels[NUM_TRAIN:])


def create_model():
  return tf.keras.models.Sequential([
      tf.keras.layers.Conv2D(8, (3, 3), activation="relu", input_shape=(8, 8, 1)),
      tf.keras.layers.Flatten(),
      tf.keras.layers.Dense(32, activation="relu"),
      tf.keras.layers.Dense(10, activation="softmax"),
  ])


def make_dataset(images, labels, batch_size, repeat):
  dataset = tf.data.Dataset.from_tensor_slices((images, labels))
  if repeat:
    dataset = dataset.repeat()
  return dataset.batch(batch_size, drop_remainder=True)


class LossHistory(tf.keras.callbacks.Callback):

  def on_train_begin(self, logs=None):
    self.losses = []

  def on_batch_end(self, batch, logs=None):
    self.losses.append(logs.get("loss"))


def main(argv):
  del argv
  tf.set_random_seed(FLAGS.seed)
  if not os.path.isdir(FLAGS.model_dir):
    os.makedirs(FLAGS.model_dir)
  (x_train, y_train), (x_test, y_test) = load_digits()

  model = create_model()
  if FLAGS.initial_weights:
    if os.path.exists(FLAGS.initial_weights):
      with np.load(FLAGS.initial_weights) as saved:
        model.set_weights([saved["arr_%d" % i] for i in range(len(saved.files))])
    else:
      np.savez(FLAGS.initial_weights, *model.get_weights())

  model.compile(
      optimizer=tf.keras.optimizers.Adam(learning_rate=FLAGS.learning_rate),
      loss="sparse_categorical_crossentropy",
      metrics=["sparse_categorical_accuracy"])

  if FLAGS.use_tpu:
    tpu_model = tf.contrib.tpu.keras_to_tpu_model(
        model,
        strategy=tf.contrib.tpu.TPUDistributionStrategy(
            tf.contrib.cluster_resolver.TPUClusterResolver(FLAGS.tpu)))
    model = tpu_model

  loss_history = LossHistory()
  history = model.fit(
      make_dataset(x_train, y_train, FLAGS.batch_size, repeat=True),
      steps_per_epoch=FLAGS.steps_per_epoch,
      epochs=FLAGS.epochs,
      callbacks=[loss_history],
      verbose=2)

  loss, accuracy = model.evaluate(
      make_dataset(x_test, y_test, FLAGS.batch_size, repeat=False), steps=FLAGS.eval_steps)
  probabilities = model.predict(x_test[:8])

  with open(os.path.join(FLAGS.model_dir, "train_losses.tsv"), "w") as writer:
    writer.write("step\tloss\n")
    for step, batch_loss in enumerate(loss_history.losses, 1):
      writer.write("%d\t%s\n" % (step, repr(float(batch_loss))))
  with open(os.path.join(FLAGS.model_dir, "history.tsv"), "w") as writer:
    writer.write("epoch\tloss\tsparse_categorical_accuracy\n")
    for epoch, (epoch_loss, epoch_accuracy) in enumerate(
        zip(history.history["loss"], history.history["sparse_categorical_accuracy"]), 1):
      writer.write("%d\t%r\t%r\n" % (epoch, float(epoch_loss), float(epoch_accuracy)))
  with open(os.path.join(FLAGS.model_dir, "eval_results.txt"), "w") as writer:
    writer.write("loss = %r\n" % float(loss))
    writer.write("sparse_categorical_accuracy = %r\n" % float(accuracy))
  with open(os.path.join(FLAGS.model_dir, "predictions.tsv"), "w") as writer:
    writer.write("\t".join("probabilities_%d" % i for i in range(10)) + "\n")
    for row in probabilities:
      writer.write("\t".join(str(p) for p in row) + "\n")
  np.savez(os.path.join(FLAGS.model_dir, "final_weights.npz"), *model.get_weights())


if __name__ == "__main__":
  tf.app.run()
