"""A TPU script whose first lines import tf.contrib and private modules it uses only on a branch
it never takes (issue 17): TF 1.15 ran it, so the compat runner must too.

Imports the modules real programs import at the top (tf.contrib.metrics for a rarely used metric,
contrib's async checkpoint hook, training/evaluation helpers, tensorflow.python.estimator and
tensorflow_estimator internals), then every top-level tf.contrib module, trains a tiny
TPUEstimator and prints the numbers and which modules it could import as one JSON line.
`--use_unsupported` takes the branch that uses one (TF 1.15 runs it; the runner must fail there
with a message naming the symbol).
"""

import json

import numpy as np
import tensorflow as tf
import tensorflow.contrib.metrics  # noqa: F401 (used only with --use_unsupported)
import tensorflow.contrib.training
import tensorflow.contrib.tpu.python.tpu.async_checkpoint  # noqa: F401
from tensorflow.contrib import metrics as contrib_metrics
from tensorflow.contrib.training.python.training import evaluation
from tensorflow.python.estimator import estimator as estimator_lib  # noqa: F401
from tensorflow_estimator.python.estimator import model_fn as model_fn_lib  # noqa: F401

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_bool("use_unsupported", False, "Take the branch that uses tf.contrib.metrics.")
FLAGS = flags.FLAGS

# Every module TF 1.15 had at tf.contrib.<name> (dir(tf.contrib) of TF 1.15).
CONTRIB_MODULES = (
    "autograph", "batching", "bayesflow", "checkpoint", "cloud", "cluster_resolver", "compiler",
    "constrained_optimization", "copy_graph", "crf", "cudnn_rnn", "data", "deprecated",
    "distribute", "distributions", "eager", "estimator", "factorization", "feature_column",
    "ffmpeg", "framework", "graph_editor", "grid_rnn", "image", "input_pipeline", "integrate",
    "keras", "kernel_methods", "labeled_tensor", "layers", "learn", "legacy_seq2seq",
    "linear_optimizer", "lookup", "losses", "memory_stats", "metrics", "mixed_precision",
    "model_pruning", "nn", "opt", "optimizer_v2", "periodic_resample", "predictor", "proto",
    "quantization", "quantize", "receptive_field", "recurrent", "reduce_slice_ops",
    "remote_fused_graph", "resampler", "rnn", "rpc", "saved_model", "seq2seq", "signal", "slim",
    "solvers", "sparsemax", "specs", "staging", "stat_summarizer", "stateless", "summary",
    "tensor_forest", "tensorboard", "testing", "tfprof", "timeseries", "tpu", "training", "util")

FEATURES = np.random.RandomState(3).randn(64, 6).astype(np.float32)
LABELS = (FEATURES[:, 0] > 0).astype(np.int32)
KERNEL = np.random.RandomState(4).uniform(-0.5, 0.5, (6, 2)).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def metric_fn(labels, logits):
    predictions = tf.argmax(logits, 1)
    if FLAGS.use_unsupported:
        return {"accuracy": contrib_metrics.cohen_kappa(labels, predictions, 3)}
    return {"accuracy": tf.metrics.accuracy(labels, predictions)}


def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features, 2, kernel_initializer=tf.constant_initializer(KERNEL))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           eval_metrics=(metric_fn, [labels, logits]))


def main(argv):
    del argv
    imported = []
    for name in CONTRIB_MODULES:
        try:
            __import__("tensorflow.contrib." + name)
        except ImportError:
            continue  # some need libraries TF 1.15 did not install either
        imported.append(name)
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=4)
    metrics = estimator.evaluate(input_fn, steps=2)
    checkpoints = list(evaluation.checkpoints_iterator(FLAGS.model_dir, timeout=0))
    print(json.dumps({
        "imported": imported,
        "eval_loss": float(metrics["loss"]),
        "eval_accuracy": float(metrics["accuracy"]),
        "checkpoints": [c.rsplit("/", 1)[-1] for c in checkpoints],
        "hparams": tf.contrib.training.HParams(learning_rate=0.5).to_json(),
    }))


if __name__ == "__main__":
    tf.app.run()
