"""TF 1.15 baseline: the probe model under tf.contrib.tpu.TPUEstimator(use_tpu=False); one JSON line.

Runs inside oracle A (CPython 3.7, so no annotations-only syntax here). On the CPU path TF 1.15 runs
one Session.run per step whatever iterations_per_loop says (docs/architecture.md, "TF 1.15 on the
CPU path"), so --steps-per-loop only goes into the config. Timing: a hook notes wall time after
every step.

Usage: .oracle/tf115/bin/python bench/tf115_workload.py --steps-per-loop K --steps N
       [--program tpu_estimator|estimator] [--default-config] [--serve --warmup-steps W]

--program estimator writes the same model for a plain tf.estimator.Estimator (EstimatorSpec);
--default-config keeps RunConfig's defaults (checkpoints every 600 s, summaries and step counter
every 100 steps) instead of turning checkpoints and summaries off (bench/core_fusion.py).
--serve keeps the estimator and reads step counts from stdin, one per line: each runs one more
train() call of that many steps and prints one JSON line (timed over the call's steps after its
first W), so that bench/core_fusion.py can alternate short timed calls of the three
implementations seconds apart.
"""

import argparse
import json
import resource
import sys
import tempfile
import time

import numpy as np
import tensorflow as tf

WARMUP_FRACTION = 0.2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps-per-loop", type=int, default=100)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--program", choices=("tpu_estimator", "estimator"),
                        default="tpu_estimator")
    parser.add_argument("--default-config", action="store_true")
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--warmup-steps", type=int, default=200)
    args = parser.parse_args()
    tf.logging.set_verbosity(tf.logging.ERROR)

    features = np.random.RandomState(0).randn(256, 8).astype(np.float32)
    labels = ((features[:, 0] > 0).astype(np.int32) + (features[:, 1] > 1).astype(np.int32)).astype(np.int32)
    marks = {}

    class Clock(tf.train.SessionRunHook):
        """Notes the time after every step of one train() call; `warm` after `warmup_steps`."""

        def __init__(self, warmup_steps):
            self._warmup_steps = warmup_steps

        def begin(self):
            self._step = 0
            marks.clear()

        def after_run(self, run_context, run_values):
            self._step += 1
            now = time.perf_counter()
            marks.setdefault("first", now)
            if self._step == self._warmup_steps:
                marks["warm"], marks["warm_cpu"] = now, time.process_time()
            marks["end"], marks["end_cpu"] = now, time.process_time()

    def input_fn(params):
        dataset = tf.data.Dataset.from_tensor_slices((features, labels))
        return dataset.repeat().batch(params["batch_size"], drop_remainder=True)

    def model_fn(features, labels, mode, params):
        hidden = tf.layers.dense(features, 16, activation=tf.nn.relu,
                                 kernel_initializer=tf.constant_initializer(0.01))
        logits = tf.layers.dense(hidden, 3, kernel_initializer=tf.constant_initializer(0.02))
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
        if args.program == "estimator":
            return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    model_dir = tempfile.mkdtemp(prefix="bench_tf115_")
    quiet = {} if args.default_config else {"save_checkpoints_steps": 10 ** 9,
                                            "save_summary_steps": 10 ** 9}
    if args.program == "estimator":
        estimator = tf.estimator.Estimator(
            model_fn=model_fn, config=tf.estimator.RunConfig(model_dir=model_dir, **quiet))
        train_input_fn = lambda: input_fn({"batch_size": 32})
    else:
        config = tf.contrib.tpu.RunConfig(
            model_dir=model_dir,
            tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=args.steps_per_loop), **quiet)
        estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                                train_batch_size=32)
        train_input_fn = input_fn
    if args.serve:
        serve(estimator, train_input_fn, Clock, marks, args)
        return
    warmup_steps = max(1, int(args.steps * WARMUP_FRACTION))
    start = time.perf_counter()
    estimator.train(train_input_fn, max_steps=args.steps, hooks=[Clock(warmup_steps)])
    timed_steps = args.steps - warmup_steps
    print(json.dumps({
        "impl": "tf115", "program": args.program, "replicas": 1, "steps_per_loop": args.steps_per_loop, "steps": args.steps,
        "first_call_s": marks["first"] - start,
        "steps_per_sec": timed_steps / (marks["end"] - marks["warm"]),
        "timed_steps": timed_steps,
        "cpu_us_per_step": 1e6 * (marks["end_cpu"] - marks["warm_cpu"]) / timed_steps,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
    }))


def serve(estimator, train_input_fn, clock_class, marks, args):
    """One train() call per step count read from stdin, continuing from the last call's step."""
    step = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        steps = int(line)
        started, cpu_started = time.perf_counter(), time.process_time()
        estimator.train(train_input_fn, max_steps=step + steps,
                        hooks=[clock_class(args.warmup_steps)])
        step += steps
        timed_steps = steps - args.warmup_steps
        print(json.dumps({
            "impl": "tf115", "program": args.program, "start_step": step - steps,
            "steps": steps, "first_call_s": marks["first"] - started,
            "call_s": time.perf_counter() - started,
            "call_cpu_s": time.process_time() - cpu_started,
            "steps_per_sec": timed_steps / (marks["end"] - marks["warm"]),
            "timed_steps": timed_steps,
            "cpu_us_per_step": 1e6 * (marks["end_cpu"] - marks["warm_cpu"]) / timed_steps,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
        }), flush=True)


if __name__ == "__main__":
    main()
