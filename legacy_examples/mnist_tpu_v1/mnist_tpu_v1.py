# Copyright 2020 The estimator-bridge Authors. Licensed under the Apache License, Version 2.0.
"""The MNIST-style TPUEstimator program after its 2020 port to `tf.compat.v1` (TF 1.15-2.15).

The same model and data as ../mnist_tpu, written as the tensorflow/tpu models were once
`tf.contrib` was gone: `import tensorflow.compat.v1 as tf` with `tf.disable_v2_behavior()`,
`from tensorflow.compat.v1 import estimator as tf_estimator`, `tf_estimator.tpu.*`,
`tf.tpu.CrossShardOptimizer`, the `PER_HOST_V2` input pipeline, `tf.io.parse_single_example`
and `eval_metrics` tensors passed as a dict.

  python mnist_tpu_v1.py --model_dir=/tmp/mnist --use_tpu=false --train_steps=60
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

from absl import app as absl_app
from absl import flags
import numpy as np
import tensorflow.compat.v1 as tf
from sklearn import datasets
from tensorflow.compat.v1 import estimator as tf_estimator

# Cloud TPU cluster resolution flags.
flags.DEFINE_string("tpu", default=None, help="The Cloud TPU to use for training.")
flags.DEFINE_string("tpu_zone", default=None, help="GCE zone of the Cloud TPU.")
flags.DEFINE_string("gcp_project", default=None, help="Project name of the Cloud TPU.")

# Model specific parameters.
flags.DEFINE_string("data_dir", None, "Where the TFRecord files are (written there if missing).")
flags.DEFINE_string("model_dir", None, "Estimator model_dir")
flags.DEFINE_integer("batch_size", 32, "Mini-batch size for the training.")
flags.DEFINE_integer("eval_batch_size", 32, "Mini-batch size for evaluation and prediction.")
flags.DEFINE_integer("train_steps", 60, "Total number of training steps.")
flags.DEFINE_integer("eval_steps", 8, "Total number of evaluation steps. 0 skips evaluation.")
flags.DEFINE_float("learning_rate", 0.01, "Learning rate.")
flags.DEFINE_float("dropout_rate", 0.4, "Dropout rate of the dense layer while training.")
flags.DEFINE_integer("iterations_per_loop", 20, "Number of iterations per TPU training loop.")
flags.DEFINE_integer("num_shards", 8, "Number of shards (TPU chips).")
flags.DEFINE_integer("save_summary_steps", 1, "Summaries every N steps.")
flags.DEFINE_integer("tf_random_seed", 1, "Graph-level random seed.")
flags.DEFINE_integer("num_predict", 8, "How many evaluation images to predict at the end.")
flags.DEFINE_bool("use_tpu", True, "Use TPUs rather than plain CPUs")
flags.DEFINE_bool("enable_predict", True, "Do some predictions at the end")

FLAGS = flags.FLAGS

NUM_TRAIN_IMAGES = 1536


def write_tfrecords(data_dir):
  """Writes the digits as train.tfrecords and eval.tfrecords (once)."""
  digits = datasets.load_digits()
  order = np.random.RandomState(0).permutation(len(digits.target))
  images = (digits.images[order] / 16.0).astype(np.float32).reshape(-1, 64)
  labels = digits.target[order].astype(np.int64)
  splits = {"train": slice(0, NUM_TRAIN_IMAGES), "eval": slice(NUM_TRAIN_IMAGES, None)}
  if not tf.io.gfile.exists(data_dir):
    tf.io.gfile.makedirs(data_dir)
  for name, rows in splits.items():
    path = os.path.join(data_dir, name + ".tfrecords")
    if tf.io.gfile.exists(path):
      continue
    with tf.io.TFRecordWriter(path) as writer:
      for image, label in zip(images[rows], labels[rows]):
        example = tf.train.Example(features=tf.train.Features(feature={
            "image": tf.train.Feature(float_list=tf.train.FloatList(value=image.tolist())),
            "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(label)])),
        }))
        writer.write(example.SerializeToString())
  return images[splits["eval"]]


def parser(serialized_example):
  """Parses a single tf.Example into image and label tensors."""
  features = tf.io.parse_single_example(
      serialized_example,
      features={
          "image": tf.io.FixedLenFeature([64], tf.float32),
          "label": tf.io.FixedLenFeature([], tf.int64),
      })
  image = tf.reshape(features["image"], [8, 8, 1])
  label = tf.cast(features["label"], tf.int32)
  return image, label


def train_input_fn(params):
  """train_input_fn defines the input pipeline used for training."""
  batch_size = params["batch_size"]
  data_dir = params["data_dir"]
  ds = tf.data.TFRecordDataset(os.path.join(data_dir, "train.tfrecords"))
  ds = ds.map(parser).cache().repeat()
  ds = ds.batch(batch_size, drop_remainder=True)
  return ds


def eval_input_fn(params):
  batch_size = params["batch_size"]
  data_dir = params["data_dir"]
  ds = tf.data.TFRecordDataset(os.path.join(data_dir, "eval.tfrecords"))
  ds = ds.map(parser).batch(batch_size, drop_remainder=True)
  return ds


def conv_net(images, is_training):
  net = tf.layers.conv2d(images, 8, [3, 3], padding="same", activation=tf.nn.relu)
  net = tf.layers.max_pooling2d(net, pool_size=[2, 2], strides=2)
  net = tf.layers.conv2d(net, 16, [3, 3], padding="same", activation=tf.nn.relu)
  net = tf.layers.max_pooling2d(net, pool_size=[2, 2], strides=2)
  net = tf.layers.flatten(net)
  net = tf.layers.dense(net, 32, activation=tf.nn.relu)
  net = tf.layers.dropout(net, rate=FLAGS.dropout_rate, training=is_training)
  return tf.layers.dense(net, 10)


def metric_fn(labels, logits):
  accuracy = tf.metrics.accuracy(
      labels=labels, predictions=tf.argmax(logits, axis=1))
  return {"accuracy": accuracy}


def model_fn(features, labels, mode, params):
  """model_fn constructs the ML model used to predict handwritten digits."""
  del params
  image = features
  if isinstance(image, dict):
    image = features["image"]

  logits = conv_net(image, is_training=(mode == tf_estimator.ModeKeys.TRAIN))

  if mode == tf_estimator.ModeKeys.PREDICT:
    predictions = {
        "class_ids": tf.argmax(logits, axis=1),
        "probabilities": tf.nn.softmax(logits),
    }
    return tf_estimator.tpu.TPUEstimatorSpec(mode, predictions=predictions)

  loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
  if mode == tf_estimator.ModeKeys.EVAL:
    return tf_estimator.tpu.TPUEstimatorSpec(
        mode=mode, loss=loss, eval_metrics=(metric_fn, {"labels": labels, "logits": logits}))

  learning_rate = tf.train.exponential_decay(
      FLAGS.learning_rate,
      tf.train.get_global_step(),
      decay_steps=100000,
      decay_rate=0.96)
  optimizer = tf.train.AdamOptimizer(learning_rate=learning_rate)
  if FLAGS.use_tpu:
    optimizer = tf.tpu.CrossShardOptimizer(optimizer)
  return tf_estimator.tpu.TPUEstimatorSpec(
      mode=mode,
      loss=loss,
      train_op=optimizer.minimize(loss, tf.train.get_global_step()))


def main(argv):
  del argv  # Unused.
  tf.logging.set_verbosity(tf.logging.INFO)

  data_dir = FLAGS.data_dir or os.path.join(FLAGS.model_dir, "data")
  eval_images = write_tfrecords(data_dir)

  if FLAGS.use_tpu:
    tpu_cluster_resolver = tf.distribute.cluster_resolver.TPUClusterResolver(
        FLAGS.tpu, zone=FLAGS.tpu_zone, project=FLAGS.gcp_project)
  else:
    tpu_cluster_resolver = None

  run_config = tf_estimator.tpu.RunConfig(
      cluster=tpu_cluster_resolver,
      model_dir=FLAGS.model_dir,
      save_summary_steps=FLAGS.save_summary_steps,
      tf_random_seed=FLAGS.tf_random_seed,
      session_config=tf.ConfigProto(
          allow_soft_placement=True, log_device_placement=False),
      tpu_config=tf_estimator.tpu.TPUConfig(
          iterations_per_loop=FLAGS.iterations_per_loop,
          num_shards=FLAGS.num_shards,
          per_host_input_for_training=tf_estimator.tpu.InputPipelineConfig.PER_HOST_V2),
  )

  estimator = tf_estimator.tpu.TPUEstimator(
      model_fn=model_fn,
      use_tpu=FLAGS.use_tpu,
      train_batch_size=FLAGS.batch_size,
      eval_batch_size=FLAGS.eval_batch_size,
      predict_batch_size=FLAGS.eval_batch_size,
      params={"data_dir": data_dir},
      config=run_config)
  # TPUEstimator.train *requires* a max_steps argument.
  estimator.train(input_fn=train_input_fn, max_steps=FLAGS.train_steps)

  if FLAGS.eval_steps:
    result = estimator.evaluate(input_fn=eval_input_fn, steps=FLAGS.eval_steps)
    output_eval_file = os.path.join(FLAGS.model_dir, "eval_results.txt")
    with tf.io.gfile.GFile(output_eval_file, "w") as writer:
      tf.logging.info("***** Eval results *****")
      for key in sorted(result.keys()):
        tf.logging.info("  %s = %s", key, str(result[key]))
        writer.write("%s = %s\n" % (key, str(result[key])))

  if FLAGS.enable_predict:
    predict_images = eval_images[:FLAGS.num_predict].reshape(-1, 8, 8, 1)

    def predict_input_fn(params):
      return tf.data.Dataset.from_tensor_slices(predict_images).batch(params["batch_size"])

    output_predict_file = os.path.join(FLAGS.model_dir, "predictions.tsv")
    with tf.io.gfile.GFile(output_predict_file, "w") as writer:
      writer.write("class_ids\t" + "\t".join("probabilities_%d" % i for i in range(10)) + "\n")
      for prediction in estimator.predict(predict_input_fn):
        writer.write("%d\t%s\n" % (prediction["class_ids"], "\t".join(
            str(p) for p in prediction["probabilities"])))


if __name__ == "__main__":
  tf.disable_v2_behavior()
  absl_app.run(main)
