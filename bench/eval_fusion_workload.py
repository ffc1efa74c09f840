"""One evaluate() workload on data of unknown length, for bench/core_eval_fusion.py; one JSON line.

Runs under the bridge (current Python) or TF 1.15 (oracle A, CPython 3.7: no annotations-only
syntax here). The probe model is trained for one step, then evaluated three times on a
`filter`ed dataset (unknown length, so the loop must find the data's end): SHORT batches
(warm-up: traces, graph building), SHORT again and LONG. The steady cost of a step is
(time(LONG) - time(SHORT)) / (LONG - SHORT): each call's fixed cost (TF 1.15 builds a graph and
a session in every evaluate(); the bridge reuses its trace) cancels out.

Usage: python bench/eval_fusion_workload.py --impl bridge|tf115 [--short 50] [--long 2050]
(ESTIMATOR_BRIDGE_STEP_FUSION=0 in the environment for the bridge's unfused run).
"""

import argparse
import json
import os
import resource
import tempfile
import time

import numpy as np


def _tf_modules(impl):
    if impl == "tf115":
        import tensorflow as tf
        return tf, tf, tf.contrib.tpu, tf.layers
    import tensorflow as tf

    import estimator_bridge as tpu
    return tf, tf.compat.v1, tpu, tpu.layers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--impl", choices=("bridge", "tf115"), required=True)
    parser.add_argument("--short", type=int, default=50)
    parser.add_argument("--long", type=int, default=2050)
    args = parser.parse_args()
    tf, tf1, tpu, layers = _tf_modules(args.impl)
    tf1.logging.set_verbosity(tf1.logging.ERROR)
    batch = 32
    features = np.random.RandomState(0).randn(batch * args.long, 8).astype(np.float32)
    labels = ((features[:, 0] > 0).astype(np.int32) + (features[:, 1] > 1).astype(np.int32))

    def input_fn(params, rows=None):
        dataset = tf.data.Dataset.from_tensor_slices((features[:rows], labels[:rows]))
        return dataset.filter(lambda f, l: True).batch(params["batch_size"])

    def model_fn(features, labels, mode, params):
        hidden = layers.dense(features, 16, activation=tf.nn.relu,
                                  kernel_initializer=tf1.constant_initializer(0.01))
        logits = layers.dense(hidden, 3, kernel_initializer=tf1.constant_initializer(0.02))
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf1.train.get_global_step())

        def metric_fn(labels, logits):
            return {"accuracy": tf1.metrics.accuracy(labels, tf1.argmax(logits, 1))}
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                    eval_metrics=(metric_fn, [labels, logits]))

    config = tpu.RunConfig(model_dir=tempfile.mkdtemp(prefix="bench_eval_fusion_"),
                           tpu_config=tpu.TPUConfig(iterations_per_loop=1))
    estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                 train_batch_size=batch, eval_batch_size=batch)
    estimator.train(lambda params: input_fn(params).repeat(), max_steps=1)
    timings = {}
    for name, batches in (("warm", args.short), ("short", args.short), ("long", args.long)):
        started, cpu = time.perf_counter(), time.process_time()
        results = estimator.evaluate(lambda params: input_fn(params, batch * batches))
        timings[name] = (time.perf_counter() - started, time.process_time() - cpu,
                         float(results["loss"]))
    steps = args.long - args.short
    print(json.dumps({
        "impl": args.impl if args.impl == "tf115" else (
            "bridge_unfused" if os.environ.get("ESTIMATOR_BRIDGE_STEP_FUSION") == "0"
            else "bridge_fused"),
        "first_call_s": timings["warm"][0],
        "steps_per_sec": steps / (timings["long"][0] - timings["short"][0]),
        "cpu_us_per_step": 1e6 * (timings["long"][1] - timings["short"][1]) / steps,
        "eval_loss_long": timings["long"][2],
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))


if __name__ == "__main__":
    main()
