# Copyright 2018 The estimator-bridge Authors. Licensed under the Apache License, Version 2.0.
"""Fine-tuning pretrained Keras weights on a TPU, the TF 1.12-1.13 way.

The pattern of the 2018 Cloud TPU Keras colabs and Kaggle kernels: build a `tf.keras` model,
`load_weights` from an HDF5 file written earlier (pretrained weights), compile it with a TF1
optimizer (`tf.train.AdamOptimizer`: Keras' own optimizers were not supported by
`keras_to_tpu_model` at first), THEN convert it with `tf.contrib.tpu.keras_to_tpu_model`, rebinding
the same name (`model = keras_to_tpu_model(model, ...)`), and `fit` on numpy arrays with a global
batch size. The loaded weights and the compile arguments must survive the conversion.

  python keras_pretrained.py --model_dir=/tmp/pretrained --use_tpu=false
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
flags.DEFINE_integer("batch_size", 64, "Global batch size (split over the TPU cores).")
flags.DEFINE_integer("epochs", 2, "Number of epochs.")
flags.DEFINE_float("learning_rate", 0.003, "Adam learning rate.")
flags.DEFINE_integer("seed", 5, "Graph-level seed for the initial weights.")
flags.DEFINE_string("pretrained", None,
                    "HDF5 weights to start from: loaded when the file exists, written first otherwise.")
FLAGS = flags.FLAGS

NUM_TRAIN = 1536
NUM_TEST = 256


def load_digits():
  digits = datasets.load_digits()
  order = np.random.RandomState(7).permutation(len(digits.target))
  features = (digits.data[order] / 16.0).astype(np.float32)
  labels = digits.target[order].astype(np.int32)
  return ((features[:NUM_TRAIN], labels[:NUM_TRAIN]),
          (features[NUM_TRAIN:NUM_TRAIN + NUM_TEST], labels[NUM_TRAIN:NUM_TRAIN + NUM_TEST]))


def create_model():
  return tf.keras.models.Sequential([
      tf.keras.layers.Dense(48, activation="relu", input_shape=(64,)),
      tf.keras.layers.Dense(24, activation="tanh"),
      tf.keras.layers.Dense(10, activation="softmax"),
  ])


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
  if FLAGS.pretrained:
    if os.path.exists(FLAGS.pretrained):
      model.load_weights(FLAGS.pretrained)
    else:
      model.save_weights(FLAGS.pretrained)
  model.compile(
      optimizer=tf.train.AdamOptimizer(learning_rate=FLAGS.learning_rate),
      loss="sparse_categorical_crossentropy",
      metrics=["sparse_categorical_accuracy"])

  if FLAGS.use_tpu:
    resolver = tf.contrib.cluster_resolver.TPUClusterResolver(FLAGS.tpu)
    model = tf.contrib.tpu.keras_to_tpu_model(
        model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))

  loss_history = LossHistory()
  history = model.fit(x_train, y_train, batch_size=FLAGS.batch_size, epochs=FLAGS.epochs,
                      shuffle=False, callbacks=[loss_history], verbose=2)
  loss, accuracy = model.evaluate(x_test, y_test, batch_size=FLAGS.batch_size)
  probabilities = model.predict(x_test[:16], batch_size=16)

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
