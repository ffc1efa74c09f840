"""The reference program of DESIGN.md section 6, runnable on every TensorFlow we compare.

It is written once and run in three flavours so that the numbers can only differ by the
TensorFlow underneath, never by the program:
  * ``tf115``  : TF 1.15, ``tf.contrib.tpu.TPUEstimator(use_tpu=False)`` (oracle A);
  * ``tf215``  : TF 2.15 + tf-estimator-nightly, ``tf.compat.v1.estimator.tpu`` (oracle B);
  * ``bridge`` : current TensorFlow through ``estimator_bridge`` (added by the bridge-core work).

Usage: python design_probe.py FLAVOUR MODEL_DIR  -> prints one JSON line with the results.
"""

import json
import sys

import numpy as np

FLAVOUR, MODEL_DIR = sys.argv[1], sys.argv[2]
LOGGED_STEPS = (1, 2, 50, 100)

import tensorflow as tf  # noqa: E402

if FLAVOUR == "tf115":
    tf1 = tf
    tpu = tf.contrib.tpu
    layers = tf.layers
elif FLAVOUR == "tf215":
    tf1 = tf.compat.v1
    tpu = tf1.estimator.tpu
    layers = tf1.layers
elif FLAVOUR == "bridge":
    import estimator_bridge as tpu

    tf1 = tf.compat.v1
    layers = tpu.layers
else:
    raise SystemExit("unknown flavour %r: expected tf115, tf215 or bridge" % FLAVOUR)

tf1.logging.set_verbosity(tf1.logging.ERROR) if hasattr(tf1, "logging") else None

FEATURES = np.random.RandomState(0).randn(256, 8).astype(np.float32)
LABELS = ((FEATURES[:, 0] > 0).astype(np.int32) + (FEATURES[:, 1] > 1).astype(np.int32)).astype(np.int32)

recorded_losses = {}


class RecordLossHook(tf1.train.SessionRunHook):
    """Records the training loss at LOGGED_STEPS (the step number after the update)."""

    def __init__(self, loss, global_step):
        self._fetches = {"loss": loss, "step": global_step}

    def before_run(self, run_context):
        return tf1.train.SessionRunArgs(self._fetches)

    def after_run(self, run_context, run_values):
        step = int(run_values.results["step"])
        if step + 1 in LOGGED_STEPS:
            recorded_losses[step + 1] = float(run_values.results["loss"])


def input_fn(params):
    dataset = tf1.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def metric_fn(labels, logits):
    return {"accuracy": tf1.metrics.accuracy(labels, tf1.argmax(logits, 1))}


def model_fn(features, labels, mode, params):
    hidden = layers.dense(features, 16, activation=tf1.nn.relu,
                          kernel_initializer=tf1.constant_initializer(0.01))
    logits = layers.dense(hidden, 3, kernel_initializer=tf1.constant_initializer(0.02))
    loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
    global_step = tf1.train.get_global_step()
    train_op = None
    hooks = []
    if mode == tf1.estimator.ModeKeys.TRAIN if FLAVOUR != "bridge" else mode == tpu.ModeKeys.TRAIN:
        train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step)
        hooks = [RecordLossHook(loss, global_step)]
    return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                eval_metrics=(metric_fn, [labels, logits]), training_hooks=hooks)


config = tpu.RunConfig(model_dir=MODEL_DIR,
                       tpu_config=tpu.TPUConfig(iterations_per_loop=10))
estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                             train_batch_size=32, eval_batch_size=32)
estimator.train(input_fn, max_steps=100)
metrics = estimator.evaluate(input_fn, steps=4)
print(json.dumps({
    "tensorflow": tf.__version__,
    "train_loss": {str(k): v for k, v in sorted(recorded_losses.items())},
    "eval_loss": float(metrics["loss"]),
    "eval_accuracy": float(metrics["accuracy"]),
    "global_step": int(metrics["global_step"]),
}))
