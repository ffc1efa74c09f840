"""The probe program of docs/architecture.md, runnable on every TensorFlow we compare.

It is written once and run in three flavours so that the numbers can only differ by the
TensorFlow underneath, never by the program:
  * ``tf115``  : TF 1.15, ``tf.contrib.tpu.TPUEstimator(use_tpu=False)`` (oracle A);
  * ``tf215``  : TF 2.15 + tf-estimator-nightly, ``tf.compat.v1.estimator.tpu`` (oracle B);
  * ``bridge`` : current TensorFlow through ``estimator_bridge`` (one import changed).

The training loss at a step is read from the `loss` summaries the estimator writes into
MODEL_DIR (save_summary_steps=1), never from hooks, so every flavour is measured the same way.

Usage: python design_probe.py FLAVOUR MODEL_DIR [REPLICAS]  -> prints one JSON line.
REPLICAS (bridge only) runs the same program as a TPU program on that many emulated cores:
use_tpu=True, TPUConfig(num_shards=REPLICAS), same global batch, CrossShardOptimizer.
"""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from tests.support.events import read_scalars  # noqa: E402

FLAVOUR, MODEL_DIR = sys.argv[1], sys.argv[2]
REPLICAS = int(sys.argv[3]) if len(sys.argv) > 3 else 0
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

    if REPLICAS > 1:
        tpu.configure_logical_cpus(REPLICAS)
    tf1 = tf.compat.v1
    layers = tpu.layers
else:
    raise SystemExit("unknown flavour %r: expected tf115, tf215 or bridge" % FLAVOUR)

tf1.logging.set_verbosity(tf1.logging.ERROR) if hasattr(tf1, "logging") else None
TRAIN = tpu.ModeKeys.TRAIN if FLAVOUR == "bridge" else tf1.estimator.ModeKeys.TRAIN

FEATURES = np.random.RandomState(0).randn(256, 8).astype(np.float32)
LABELS = ((FEATURES[:, 0] > 0).astype(np.int32) + (FEATURES[:, 1] > 1).astype(np.int32)).astype(np.int32)


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
    if mode == TRAIN:
        optimizer = tf1.train.GradientDescentOptimizer(0.1)
        if params["use_tpu"]:
            optimizer = tpu.CrossShardOptimizer(optimizer)
        train_op = optimizer.minimize(loss, global_step)
    return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                eval_metrics=(metric_fn, [labels, logits]))


# save_summary_steps=1: the estimator writes the `loss` summary at every step (the same way on
# every flavour; tests/support/events.py reads them back).
config = tpu.RunConfig(model_dir=MODEL_DIR, save_summary_steps=1,
                       tpu_config=tpu.TPUConfig(iterations_per_loop=10,
                                                num_shards=REPLICAS or None))
estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=REPLICAS > 0,
                             train_batch_size=32, eval_batch_size=32)
estimator.train(input_fn, max_steps=100)
metrics = estimator.evaluate(input_fn, steps=4)
all_losses = read_scalars(MODEL_DIR, "loss")
print(json.dumps({
    "tensorflow": tf.__version__,
    "train_loss": {str(k): all_losses[k] for k in LOGGED_STEPS},
    "eval_loss": float(metrics["loss"]),
    "eval_accuracy": float(metrics["accuracy"]),
    "global_step": int(metrics["global_step"]),
}))
