# Copyright 2018 The estimator-bridge Authors. Licensed under the Apache License, Version 2.0.
"""Iris classification with a DNN in a TPUEstimator, on feature dicts and feature columns.

The premade-estimator tutorial of 2018 (argparse flags, features as a dict keyed by column name,
`tf.feature_column.numeric_column`, three hard-coded examples to predict) moved into a
TPUEstimator model_fn: `tf.feature_column.input_layer`, hyperparameters carried in `params`,
`predict(predict_keys=...)`, and `export_saved_model` for CPU serving (`export_to_tpu=False`).

  python iris_dnn.py --model_dir=/tmp/iris --use_tpu=false --train_steps=50
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import os

import numpy as np
import tensorflow as tf
from sklearn import datasets

parser = argparse.ArgumentParser()
parser.add_argument("--model_dir", type=str, required=True, help="model_dir of the estimator")
parser.add_argument("--batch_size", default=20, type=int, help="batch size")
parser.add_argument("--eval_batch_size", default=10, type=int, help="evaluation batch size")
parser.add_argument("--predict_batch_size", default=2, type=int, help="prediction batch size")
parser.add_argument("--train_steps", default=50, type=int, help="number of training steps")
parser.add_argument("--iterations_per_loop", default=10, type=int, help="steps per TPU loop")
parser.add_argument("--learning_rate", default=0.1, type=float, help="Adagrad learning rate")
parser.add_argument("--use_tpu", default="true", type=str, help="true or false")
parser.add_argument("--export", default="true", type=str, help="export a SavedModel at the end")

CSV_COLUMN_NAMES = ["SepalLength", "SepalWidth", "PetalLength", "PetalWidth", "Species"]
SPECIES = ["Setosa", "Versicolor", "Virginica"]
FEATURE_NAMES = CSV_COLUMN_NAMES[:-1]


def load_data(num_train=120):
  """Returns the iris dataset as (train_x, train_y), (test_x, test_y), features as dicts."""
  iris = datasets.load_iris()
  order = np.random.RandomState(0).permutation(len(iris.target))
  x = iris.data[order].astype(np.float32)
  y = iris.target[order].astype(np.int32)
  to_dict = lambda rows: dict((name, rows[:, i]) for i, name in enumerate(FEATURE_NAMES))
  return (to_dict(x[:num_train]), y[:num_train]), (to_dict(x[num_train:]), y[num_train:])


def train_input_fn(features, labels):
  def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((dict(features), labels))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)
  return input_fn


def eval_input_fn(features, labels=None):
  def input_fn(params):
    inputs = dict(features) if labels is None else (dict(features), labels)
    return tf.data.Dataset.from_tensor_slices(inputs).batch(params["batch_size"])
  return input_fn


def serving_input_receiver_fn():
  inputs = dict((name, tf.placeholder(tf.float32, [None], name=name)) for name in FEATURE_NAMES)
  return tf.estimator.export.ServingInputReceiver(inputs, inputs)


def my_model(features, labels, mode, params):
  """DNN with hidden layers and dropout-free ReLUs."""
  net = tf.feature_column.input_layer(features, params["feature_columns"])
  for units in params["hidden_units"]:
    net = tf.layers.dense(net, units=units, activation=tf.nn.relu)
  logits = tf.layers.dense(net, params["n_classes"], activation=None)

  predicted_classes = tf.argmax(logits, 1)
  if mode == tf.estimator.ModeKeys.PREDICT:
    predictions = {
        "class_ids": predicted_classes[:, tf.newaxis],
        "probabilities": tf.nn.softmax(logits),
        "logits": logits,
    }
    return tf.contrib.tpu.TPUEstimatorSpec(mode, predictions=predictions)

  loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)

  if mode == tf.estimator.ModeKeys.EVAL:
    def metric_fn(labels, predicted_classes):
      return {"accuracy": tf.metrics.accuracy(labels=labels, predictions=predicted_classes)}
    return tf.contrib.tpu.TPUEstimatorSpec(
        mode, loss=loss, eval_metrics=(metric_fn, [labels, predicted_classes]))

  assert mode == tf.estimator.ModeKeys.TRAIN
  optimizer = tf.train.AdagradOptimizer(learning_rate=params["learning_rate"])
  if params["use_tpu"]:
    optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
  train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
  return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)


def main(argv):
  args = parser.parse_args(argv[1:])
  use_tpu = args.use_tpu.lower() == "true"

  (train_x, train_y), (test_x, test_y) = load_data()

  my_feature_columns = []
  for key in FEATURE_NAMES:
    my_feature_columns.append(tf.feature_column.numeric_column(key=key))

  config = tf.contrib.tpu.RunConfig(
      model_dir=args.model_dir,
      save_summary_steps=1,
      tf_random_seed=42,
      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=args.iterations_per_loop))
  classifier = tf.contrib.tpu.TPUEstimator(
      model_fn=my_model,
      config=config,
      use_tpu=use_tpu,
      train_batch_size=args.batch_size,
      eval_batch_size=args.eval_batch_size,
      predict_batch_size=args.predict_batch_size,
      export_to_tpu=False,
      params={
          "feature_columns": my_feature_columns,
          "hidden_units": [10, 10],
          "n_classes": 3,
          "learning_rate": args.learning_rate,
      })

  classifier.train(input_fn=train_input_fn(train_x, train_y), max_steps=args.train_steps)

  eval_result = classifier.evaluate(
      input_fn=eval_input_fn(test_x, test_y),
      steps=len(test_y) // args.eval_batch_size)
  print("\nTest set accuracy: {accuracy:0.3f}\n".format(**eval_result))
  with tf.gfile.GFile(os.path.join(args.model_dir, "eval_results.txt"), "w") as writer:
    for key in sorted(eval_result):
      writer.write("%s = %s\n" % (key, str(eval_result[key])))

  # Generate predictions from the model
  expected = ["Setosa", "Versicolor", "Virginica"]
  predict_x = {
      "SepalLength": [5.1, 5.9, 6.9],
      "SepalWidth": [3.3, 3.0, 3.1],
      "PetalLength": [1.7, 4.2, 5.4],
      "PetalWidth": [0.5, 1.5, 2.1],
  }
  predict_x = dict((k, np.array(v, dtype=np.float32)) for k, v in predict_x.items())
  predictions = classifier.predict(
      input_fn=eval_input_fn(predict_x), predict_keys=["class_ids", "probabilities"])

  with tf.gfile.GFile(os.path.join(args.model_dir, "predictions.tsv"), "w") as writer:
    writer.write("class_id\tprobability_0\tprobability_1\tprobability_2\n")
    for pred_dict, expec in zip(predictions, expected):
      if "logits" in pred_dict:
        raise ValueError("predict_keys did not filter the predictions: %s" % sorted(pred_dict))
      class_id = pred_dict["class_ids"][0]
      probability = pred_dict["probabilities"][class_id]
      print('\nPrediction is "{}" ({:.1f}%), expected "{}"'.format(
          SPECIES[class_id], 100 * probability, expec))
      writer.write("%d\t%s\n" % (class_id, "\t".join(str(p) for p in pred_dict["probabilities"])))

  if args.export.lower() == "true":
    export_dir = classifier.export_saved_model(
        os.path.join(args.model_dir, "export"), serving_input_receiver_fn)
    print("Exported to %s" % export_dir)


if __name__ == "__main__":
  tf.logging.set_verbosity(tf.logging.INFO)
  tf.app.run(main)
