"""One predict() workload, for bench/core_predict_fusion.py; one JSON line.

Runs under the bridge (current Python) or TF 1.15 (oracle A, CPython 3.7: no annotations-only
syntax here). The probe model as a TPUEstimator(use_tpu=False) is trained for one step, then
predicts, one example at a time as predict() yields them, three times: SHORT batches (warm-up:
traces, graph building), SHORT again and LONG. The input is `--input finite`
(`from_tensor_slices(...).batch(32)`, a known length) or `unknown` (the same through a
`filter`: the loop must find the data's end). The steady cost of a batch is
(time(LONG) - time(SHORT)) / (LONG - SHORT): each call's fixed cost (TF 1.15 builds a graph and
a session in every predict(); the bridge reuses its trace) cancels out.

The LONG run's predictions are summarised as digests (sha256 of the classes, of the
probabilities' bytes) so that the comparison can check that every implementation predicted the
same thing before it compares speeds.

Usage: python bench/predict_fusion_workload.py --impl bridge|tf115 [--input finite|unknown]
[--short 50] [--long 2050] (ESTIMATOR_BRIDGE_STEP_FUSION=0 for the bridge's unfused run).
"""

import argparse
import hashlib
import json
import tempfile

import numpy as np
from fusion_workload_common import BATCH, probe_data, speed_record, tf_modules, timed_calls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--impl", choices=("bridge", "tf115"), required=True)
    parser.add_argument("--input", choices=("finite", "unknown"), default="unknown")
    parser.add_argument("--short", type=int, default=50)
    parser.add_argument("--long", type=int, default=2050)
    args = parser.parse_args()
    tf, tf1, tpu, layers = tf_modules(args.impl)
    tf1.logging.set_verbosity(tf1.logging.ERROR)
    features, labels = probe_data(args.long)

    def train_input_fn(params):
        dataset = tf.data.Dataset.from_tensor_slices((features, labels))
        return dataset.repeat().batch(params["batch_size"], drop_remainder=True)

    def predict_input_fn(params, rows):
        dataset = tf.data.Dataset.from_tensor_slices(features[:rows])
        if args.input == "unknown":
            dataset = dataset.filter(lambda f: True)
        return dataset.batch(params["batch_size"])

    def model_fn(features, labels, mode, params):
        hidden = layers.dense(features, 16, activation=tf.nn.relu,
                              kernel_initializer=tf1.constant_initializer(0.01))
        logits = layers.dense(hidden, 3, kernel_initializer=tf1.constant_initializer(0.02))
        if mode == "infer":  # ModeKeys.PREDICT in both
            return tpu.TPUEstimatorSpec(mode=mode, predictions={
                "classes": tf1.argmax(logits, 1), "probabilities": tf1.nn.softmax(logits)})
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf1.train.get_global_step())
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    config = tpu.RunConfig(model_dir=tempfile.mkdtemp(prefix="bench_predict_fusion_"),
                           tpu_config=tpu.TPUConfig(iterations_per_loop=1))
    estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                 train_batch_size=BATCH, predict_batch_size=BATCH)
    estimator.train(train_input_fn, max_steps=1)

    def predict(batches):
        classes, probabilities = [], []
        for example in estimator.predict(lambda params: predict_input_fn(params, BATCH * batches)):
            classes.append(example["classes"])
            probabilities.append(example["probabilities"])
        return classes, probabilities

    timings = timed_calls(predict, args.short, args.long)
    classes, probabilities = timings["long"][2]
    record = speed_record(args.impl, timings, args.short, args.long)
    record.update({
        "input": args.input,
        "examples_long": len(classes),
        "classes_sha256": hashlib.sha256(np.asarray(classes, np.int64).tobytes()).hexdigest(),
        "probabilities_sha256": hashlib.sha256(
            np.asarray(probabilities, np.float32).tobytes()).hexdigest()})
    print(json.dumps(record))


if __name__ == "__main__":
    main()
