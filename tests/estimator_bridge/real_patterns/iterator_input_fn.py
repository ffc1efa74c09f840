"""input_fns that return `dataset.make_one_shot_iterator().get_next()` tensors, not a Dataset
(tensorflow/tpu's 2018 dcgan_main.py and mnist_input.py; TF 1.x tutorials): a TF1 session
evaluated them once per step, so every step got the next batch and the data ended with
OutOfRange. The pipeline caches (`.cache()`: TF2's graph one-shot iterator refuses it), the
evaluation data are batched with drop_remainder and evaluated to their end (steps=None), and
predict's input_fn returns `(features, None)`. metric_fn uses `tf.metrics.recall_at_k`, whose
variables are named by their full name scope.

Prints, as one JSON line, the step losses TPUEstimator wrote, the evaluation, the predictions and
the final variables.
"""

import glob
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(7).randn(64, 3).astype(np.float32)
LABELS = (FEATURES[:, 0] - FEATURES[:, 2] > 0).astype(np.int32)


def train_input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS)).cache().repeat()
    dataset = dataset.batch(params["batch_size"], drop_remainder=True)
    features, labels = dataset.make_one_shot_iterator().get_next()
    return {"x": features}, labels


def eval_input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES[:32], LABELS[:32])).cache()
    dataset = dataset.batch(params["batch_size"], drop_remainder=True)
    features, labels = dataset.make_one_shot_iterator().get_next()
    return {"x": features}, labels


def predict_input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices(FEATURES[:20]).batch(params["batch_size"])
    return {"x": dataset.make_one_shot_iterator().get_next()}, None


def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features["x"], 2, kernel_initializer=tf.constant_initializer(0.1),
                             name="logits")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, predictions={"logits": logits})
    per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    loss = tf.reduce_mean(per_example)
    if mode == tf.estimator.ModeKeys.EVAL:
        def metric_fn(per_example, labels, logits):
            return {"mean_loss": tf.metrics.mean(per_example),
                    "accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1)),
                    # names one variable by its full name scope (tensorflow/tpu squeezenet)
                    "recall_at_1": tf.metrics.recall_at_k(tf.cast(labels, tf.int64), logits, 1)}
        return tf.contrib.tpu.TPUEstimatorSpec(
            mode=mode, loss=loss, eval_metrics=(metric_fn, [per_example, labels, logits]))
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(
        loss, tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir, save_summary_steps=1,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=3))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8,
                                            predict_batch_size=8)
    estimator.train(train_input_fn, max_steps=6)
    evaluation = estimator.evaluate(eval_input_fn)
    predictions = [p["logits"].tolist() for p in estimator.predict(predict_input_fn)]
    losses = {}
    for path in glob.glob(os.path.join(FLAGS.model_dir, "events.out.tfevents.*")):
        for event in tf.train.summary_iterator(path):
            for value in event.summary.value:
                if value.tag == "loss":
                    number = (value.simple_value if value.HasField("simple_value")
                              else float(tf.make_ndarray(value.tensor)))
                    losses[str(event.step)] = number
    variables = {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                 for name in estimator.get_variable_names() if name != "global_step"}
    print(json.dumps({"loss": losses, "evaluation": {key: float(value) for key, value in
                                                     evaluation.items()},
                      "predictions": predictions, "variables": variables}))


if __name__ == "__main__":
    tf.app.run()
