"""At which steps TF 1.15's TPUEstimator writes its summaries: training loss, rates, evaluation.

Runs in the TF 1.15 oracle (CPython 3.7) and prints one JSON line; the golden
`summary_cadence_tf115.json` beside this file is recorded from two identical runs by
`python -m tests.estimator_bridge.goldens.record summary_cadence`.

`cpu_path`: TPUEstimator(use_tpu=False) trains tests/estimator_bridge/tiny.py's model (8
features, one dense layer, gradient descent 0.1, batch 16) under each RUNS configuration; the
steps of the rate tags in model_dir and of every tag in model_dir/eval after evaluate are
recorded. On this path TF 1.15 runs ONE step per session.run whatever iterations_per_loop says,
so its hooks see every step.

The training `loss` summary's steps are NOT recorded: on TF 1.15 they are not deterministic.
SummarySaverHook fetches global_step in the same session.run as the train op, unordered, and
writes the summary at whichever value it read (measured, 4 runs with one inter-op thread:
save_summary_steps=10 gave [1, 11, 21, 31] three times and [1, 10, 20, 30] once; without the
thread limit, 120 steps at the default 100 gave [1, 101] or [1, 100]). The rate hook reads global_step in a
session.run of its own after the step, so the rate steps are deterministic.

`tpu_path_rates`: on a TPU, TF 1.15 runs iterations_per_loop steps per session.run and gives its
ExamplesPerSecondHook `_set_steps_per_run(iterations_per_loop)` and every_n_steps =
ceil(log_step_count_steps / iterations_per_loop) (tpu_estimator.py, TPUEstimator.__init__ and
_augment_model_fn). No TPU is needed to see where that hook writes: TF 1.15's own hook is driven
here exactly so, one session.run per loop that advances global_step by iterations_per_loop.
"""

import glob
import json
import math
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow_estimator.python.estimator.tpu.tpu_estimator import ExamplesPerSecondHook

tpu = tf.contrib.tpu

FEATURES = np.random.RandomState(1).randn(64, 8).astype(np.float32)
LABELS = (FEATURES[:, 0] > 0).astype(np.int32) + (FEATURES[:, 1] > 1).astype(np.int32)
BATCH = 16
RATE_TAGS = ("global_step/sec", "examples/sec")

# name -> (RunConfig keyword arguments, iterations_per_loop, max_steps, evaluate after?)
RUNS = {
    "one_step_loops": ({}, 1, 250, False),
    "three_step_loops": ({}, 3, 120, False),
    "no_summary_steps": ({"save_summary_steps": 0}, 1, 120, False),
    "no_step_logging": ({"log_step_count_steps": None}, 1, 120, False),
    "summaries_every_10": ({"save_summary_steps": 10}, 4, 35, True),
}
# name -> (iterations_per_loop, max_steps) for the TPU path's rate hook; log_step_count_steps 100.
TPU_PATH_RATES = {"one_step_loops": (1, 250), "three_step_loops": (3, 120),
                  "summaries_every_10": (4, 35)}


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def metric_fn(labels, logits):
    return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}


def model_fn(features, labels, mode, params):
    kernel = tf.get_variable("dense/kernel", [8, 3], initializer=tf.constant_initializer(0.02))
    bias = tf.get_variable("dense/bias", [3], initializer=tf.zeros_initializer())
    logits = tf.matmul(features, kernel) + bias
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = None
    if mode == tf.estimator.ModeKeys.TRAIN:
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf.train.get_global_step())
    return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                eval_metrics=(metric_fn, [labels, logits]))


def tag_steps(logdir):
    """{tag: sorted steps} of the scalar summaries directly in logdir."""
    tf.summary.FileWriterCache.clear()  # flush and close the writers the hooks keep open
    steps = {}
    for path in sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*"))):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                steps.setdefault(value.tag, set()).add(int(event.step))
    return {tag: sorted(found) for tag, found in sorted(steps.items())}


def cpu_path(run_config, iterations_per_loop, max_steps, evaluate):
    with tempfile.TemporaryDirectory() as model_dir:
        config = tpu.RunConfig(model_dir=model_dir,
                               tpu_config=tpu.TPUConfig(iterations_per_loop=iterations_per_loop),
                               **run_config)
        estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                     train_batch_size=BATCH, eval_batch_size=BATCH)
        estimator.train(input_fn, max_steps=max_steps)
        result = {"train": {tag: steps for tag, steps in tag_steps(model_dir).items()
                            if tag in RATE_TAGS}}
        if evaluate:
            estimator.evaluate(input_fn, steps=2)
            result["eval"] = tag_steps(os.path.join(model_dir, "eval"))
        return result


def tpu_path_rate_steps(iterations_per_loop, max_steps, log_step_count_steps=100):
    """Where TF 1.15's ExamplesPerSecondHook writes when each session.run is one TPU loop."""
    with tempfile.TemporaryDirectory() as logdir, tf.Graph().as_default():
        global_step = tf.train.get_or_create_global_step()
        loop_size = tf.placeholder(tf.int64, [])
        loop = tf.assign_add(global_step, loop_size)
        hook = ExamplesPerSecondHook(
            BATCH, output_dir=logdir,
            every_n_steps=int(math.ceil(float(log_step_count_steps) / iterations_per_loop)))
        hook._set_steps_per_run(iterations_per_loop)  # as TPUEstimator's TPU path does
        with tf.train.MonitoredSession(hooks=[hook]) as session:
            # Every session.run runs the hooks, so the loop sizes are computed here rather than
            # read from the graph; the last loop is shortened to end at max_steps, as TF 1.15's
            # TPU path does.
            done = 0
            while done < max_steps:
                size = min(iterations_per_loop, max_steps - done)
                session.run(loop, {loop_size: size})
                done += size
        return tag_steps(logdir)


def main():
    tf.logging.set_verbosity(tf.logging.ERROR)
    print(json.dumps({
        "tensorflow": tf.__version__,
        "cpu_path": {name: cpu_path(*RUNS[name]) for name in RUNS},
        "tpu_path_rates": {name: tpu_path_rate_steps(*TPU_PATH_RATES[name])
                           for name in TPU_PATH_RATES},
    }, sort_keys=True))


if __name__ == "__main__":
    sys.exit(main())
