"""Evaluation with exponential-moving-average weights through scaffold_fn's Saver (issue 17).

tensorflow/tpu's ResNet, EfficientNet and MnasNet and google-research/uda train with
`tf.train.ExponentialMovingAverage` and evaluate the averaged weights: in EVAL mode scaffold_fn
returns `tf.train.Scaffold(saver=tf.train.Saver(ema.variables_to_restore()))`, so the checkpoint's
`.../ExponentialMovingAverage` values are restored into the model's variables. Prints the
evaluation and predictions (which use the raw weights: no scaffold there) as one JSON line.
`--ema_eval=false` trains with the averages but evaluates the raw weights.
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_bool("ema_eval", True, "Evaluate the averaged weights through scaffold_fn's Saver.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).randn(64, 6).astype(np.float32)
LABELS = (FEATURES[:, 0] > 0).astype(np.int32)
KERNEL = np.random.RandomState(4).uniform(-0.5, 0.5, (6, 2)).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def predict_input_fn(params):
    return tf.data.Dataset.from_tensor_slices(FEATURES[:4]).batch(params["batch_size"])


def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features, 2, kernel_initializer=tf.constant_initializer(KERNEL))
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.contrib.tpu.TPUEstimatorSpec(mode, predictions={"logits": logits})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    global_step = tf.train.get_global_step()
    ema = tf.train.ExponentialMovingAverage(decay=0.5, num_updates=global_step)
    train_op = None
    scaffold_fn = None
    if mode == tf.estimator.ModeKeys.TRAIN:
        minimize = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step)
        with tf.control_dependencies([minimize]):
            train_op = ema.apply(tf.trainable_variables())
    elif FLAGS.ema_eval:
        restore_vars_dict = ema.variables_to_restore(tf.trainable_variables())

        def scaffold_fn():
            return tf.train.Scaffold(saver=tf.train.Saver(restore_vars_dict))

    def metric_fn(labels, logits):
        return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           eval_metrics=(metric_fn, [labels, logits]),
                                           scaffold_fn=scaffold_fn)


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8,
                                            predict_batch_size=4)
    estimator.train(input_fn, max_steps=6)
    metrics = estimator.evaluate(input_fn, steps=2)
    predictions = [p["logits"].tolist() for p in estimator.predict(predict_input_fn)]
    print(json.dumps({
        "eval_loss": float(metrics["loss"]),
        "eval_accuracy": float(metrics["accuracy"]),
        "predictions": predictions,
        "kernel": estimator.get_variable_value("dense/kernel").tolist(),
        "kernel_ema": estimator.get_variable_value("dense/kernel/ExponentialMovingAverage").tolist(),
    }))


if __name__ == "__main__":
    tf.app.run()
