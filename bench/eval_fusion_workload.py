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
import tempfile

from fusion_workload_common import BATCH, probe_data, speed_record, tf_modules, timed_calls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--impl", choices=("bridge", "tf115"), required=True)
    parser.add_argument("--short", type=int, default=50)
    parser.add_argument("--long", type=int, default=2050)
    args = parser.parse_args()
    tf, tf1, tpu, layers = tf_modules(args.impl)
    tf1.logging.set_verbosity(tf1.logging.ERROR)
    features, labels = probe_data(args.long)

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
                                 train_batch_size=BATCH, eval_batch_size=BATCH)
    estimator.train(lambda params: input_fn(params).repeat(), max_steps=1)
    timings = timed_calls(lambda batches: float(estimator.evaluate(
        lambda params: input_fn(params, BATCH * batches))["loss"]), args.short, args.long)
    record = speed_record(args.impl, timings, args.short, args.long)
    record["eval_loss_long"] = timings["long"][2]
    print(json.dumps(record))


if __name__ == "__main__":
    main()
