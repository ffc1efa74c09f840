"""An eval metric_fn built from tf.contrib.metrics, as GLUE heads of BERT/ALBERT/XLNet wrote it.

STS-B-style Pearson correlation and MRPC-style F1, streaming_concat of the predictions (its
buffer grows 1.5x per reallocation; the last batch is partial: 27 rows, batch 8), streaming_auc
and streaming_accuracy called positionally in contrib's (predictions, labels) order,
streaming_covariance with weights, aggregate_metric_map. TPUEstimator on the CPU path, trained
3 steps, evaluated to the end of the data. Prints one JSON line.
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(7).rand(27, 5).astype(np.float32)
SCORES = (FEATURES @ np.array([0.5, -0.2, 0.3, 0.1, 0.4], np.float32)).astype(np.float32)
LABELS = (SCORES > np.median(SCORES)).astype(np.int32)
WEIGHTS = np.linspace(0.5, 1.5, 27).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices(
        ({"x": FEATURES, "w": WEIGHTS}, {"score": SCORES, "label": LABELS}))
    if params.get("train"):
        return dataset.repeat().batch(params["batch_size"], drop_remainder=True)
    return dataset.batch(params["batch_size"])


def train_input_fn(params):
    return input_fn(dict(params, train=True))


def model_fn(features, labels, mode, params):
    hidden = tf.layers.dense(features["x"], 4, activation=tf.nn.tanh,
                             kernel_initializer=tf.glorot_uniform_initializer(seed=1))
    outputs = tf.layers.dense(hidden, 2, kernel_initializer=tf.glorot_uniform_initializer(seed=2))
    predicted_score = outputs[:, 0]
    logits = tf.stack([tf.zeros_like(outputs[:, 1]), outputs[:, 1]], axis=1)
    loss = tf.losses.mean_squared_error(labels["score"], predicted_score) + \
        tf.losses.sparse_softmax_cross_entropy(labels["label"], logits)
    train_op = tf.train.GradientDescentOptimizer(0.3).minimize(loss, tf.train.get_global_step())

    def metric_fn(score, label, predicted_score, logits, weights):
        probability = tf.nn.softmax(logits)[:, 1]
        predicted_label = tf.argmax(logits, 1, output_type=tf.int32)
        metrics = {
            "pearson": tf.contrib.metrics.streaming_pearson_correlation(predicted_score, score),
            "weighted_covariance": tf.contrib.metrics.streaming_covariance(
                predicted_score, score, weights=weights),
            "f1": tf.contrib.metrics.f1_score(label, probability),
            "auc": tf.contrib.metrics.streaming_auc(probability, label),
            "accuracy": tf.contrib.metrics.streaming_accuracy(predicted_label, label),
            "mean_score": tf.contrib.metrics.streaming_mean(predicted_score),
            "all_scores": tf.contrib.metrics.streaming_concat(predicted_score),
        }
        values, updates = tf.contrib.metrics.aggregate_metric_map(metrics)
        return {name: (values[name], updates[name]) for name in values}

    return tf.contrib.tpu.TPUEstimatorSpec(
        mode=mode, loss=loss, train_op=train_op,
        eval_metrics=(metric_fn, [labels["score"], labels["label"], predicted_score, logits,
                                  features["w"]]))


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=3))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(train_input_fn, max_steps=3)
    metrics = estimator.evaluate(input_fn, steps=None)
    print(json.dumps({name: np.asarray(value).astype(np.float64).tolist()
                      for name, value in sorted(metrics.items())}))


if __name__ == "__main__":
    tf.app.run()
