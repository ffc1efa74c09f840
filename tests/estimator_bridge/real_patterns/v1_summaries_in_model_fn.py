"""A TRAIN model_fn that writes TF1 `tf.summary.*` itself, trained on the CPU path (2018-2020 style).

EliasCai/bert-toxicity-classification's classifier (BERT run_classifier, TPUEstimator with
use_tpu=False) adds `tf.summary.scalar("accuracy", accuracy[1])` after `tf.metrics.accuracy`, so
its tag is `accuracy_1`; other programs of the time add the learning rate, histograms of the
logits and image summaries of the input. TF 1.15's SummarySaverHook wrote them all into model_dir
at the first step of each train() call and every save_summary_steps after it.

Trains with `--estimator=tpu` (TPUEstimator, use_tpu=False) or `plain` (tf.estimator.Estimator),
in two train() calls (to step 7, then to 12) with save_summary_steps=3, and prints, as one JSON
line, every tag's series in model_dir (scalars: value; histograms: min, max, num, sum; images:
height, width, colorspace) and the final variables. With --own_loss model_fn also writes its own
`loss` summary (twice the loss): TF 1.15's Estimator then added no loss summary of its own.
"""

import glob
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints and summaries go.")
flags.DEFINE_string("estimator", "tpu", "tpu (TPUEstimator, use_tpu=False) or plain (Estimator).")
flags.DEFINE_bool("own_loss", False, "model_fn writes its own `loss` summary (twice the loss).")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).randn(64, 16).astype(np.float32)
LABELS = (FEATURES[:, 0] + FEATURES[:, 5] > 0).astype(np.int32)
BATCH = 8


def input_fn(params=None):
    batch = params["batch_size"] if params and "batch_size" in params else BATCH
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(batch, drop_remainder=True)


def model_fn(features, labels, mode, params=None):
    hidden = tf.layers.dense(features, 8, activation=tf.nn.relu,
                             kernel_initializer=tf.constant_initializer(0.05))
    logits = tf.layers.dense(hidden, 2, kernel_initializer=tf.constant_initializer(-0.03))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
    accuracy = tf.metrics.accuracy(labels, predictions)
    tf.summary.scalar("accuracy", accuracy[1])
    global_step = tf.train.get_or_create_global_step()
    learning_rate = tf.train.exponential_decay(0.5, global_step, 1, 0.9)
    tf.summary.scalar("learning_rate", learning_rate)
    tf.summary.histogram("logits", logits)
    tf.summary.image("inputs", tf.reshape(features, [-1, 4, 4, 1]), max_outputs=2)
    if FLAGS.own_loss:
        tf.summary.scalar("loss", loss * 2.0)
    with tf.name_scope("extra"):
        tf.summary.scalar("mean_logit", tf.reduce_mean(logits))
    train_op = tf.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step)
    if FLAGS.estimator == "tpu":
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def read_events():
    series = {}
    for path in sorted(glob.glob(os.path.join(FLAGS.model_dir, "events.out.tfevents.*"))):
        for event in tf.train.summary_iterator(path):
            for value in event.summary.value:
                kind = value.WhichOneof("value")
                if kind == "simple_value":
                    number = value.simple_value
                elif kind == "histo":
                    number = [value.histo.min, value.histo.max, value.histo.num, value.histo.sum]
                elif kind == "image":
                    number = [value.image.height, value.image.width, value.image.colorspace]
                else:
                    number = float(tf.make_ndarray(value.tensor))
                series.setdefault(value.tag, {})[str(event.step)] = number
    return series


def main(argv):
    del argv
    if FLAGS.estimator == "tpu":
        config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir, save_summary_steps=3,
                                          tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
        estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                                train_batch_size=BATCH)
    else:
        config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, save_summary_steps=3)
        estimator = tf.estimator.Estimator(model_fn=model_fn, config=config)
    estimator.train(input_fn, max_steps=7)
    estimator.train(input_fn, max_steps=12)
    series = read_events()
    series.pop("global_step/sec", None)
    series.pop("examples/sec", None)
    variables = {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                 for name in estimator.get_variable_names() if "dense" in name}
    print(json.dumps({"summaries": series, "variables": variables}))


if __name__ == "__main__":
    tf.app.run()
