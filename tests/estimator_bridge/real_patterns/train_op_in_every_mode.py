"""A TPUEstimator model_fn that builds `CrossShardOptimizer(...).minimize` (on TPU) in every mode and returns
the train_op only in TRAIN (the common TF1 shape: tensorflow/tpu's and many research model_fns
build the optimizer before looking at the mode). In TF 1.15 the EVAL graph held that train_op and
never ran it.

Prints, as one JSON line, the step losses TPUEstimator wrote, the evaluation and the final
variables. Run on TF 1.15 with --use_tpu=false (one CPU replica), and on the bridge also with
--use_tpu=true --num_shards=2 under `python -m estimator_bridge.tpu_emulation --cores 2`: the
cross-shard mean of two half batches is the one-replica mean of the whole batch.
"""

import glob
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_bool("use_tpu", False, "TPUEstimator's use_tpu.")
flags.DEFINE_integer("num_shards", 1, "TPUConfig's num_shards.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).randn(64, 4).astype(np.float32)
LABELS = (FEATURES[:, 0] - 0.5 * FEATURES[:, 3] > 0).astype(np.int32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def metric_fn(labels, logits):
    return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}


def model_fn(features, labels, mode, params):
    hidden = tf.layers.dense(features, 6, activation=tf.nn.tanh,
                             kernel_initializer=tf.constant_initializer(0.2))
    logits = tf.layers.dense(hidden, 2, kernel_initializer=tf.constant_initializer(-0.1))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    optimizer = tf.train.MomentumOptimizer(0.1, 0.9)
    if params["use_tpu"]:  # TF 1.15 has no CPU kernel for its cross_replica_sum
        optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
    train_op = optimizer.minimize(loss, tf.train.get_global_step())
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss,
                                               eval_metrics=(metric_fn, [labels, logits]))
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir, save_summary_steps=1,
                                      tpu_config=tf.contrib.tpu.TPUConfig(
                                          iterations_per_loop=2, num_shards=FLAGS.num_shards))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=FLAGS.use_tpu,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=4)
    evaluation = estimator.evaluate(input_fn, steps=2)
    losses = {}
    for path in glob.glob(os.path.join(FLAGS.model_dir, "events.out.tfevents.*")):
        for event in tf.train.summary_iterator(path):
            for value in event.summary.value:
                if value.tag == "loss":
                    losses[str(event.step)] = (value.simple_value if value.HasField("simple_value")
                                               else float(tf.make_ndarray(value.tensor)))
    variables = {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                 for name in estimator.get_variable_names()
                 if name != "global_step" and "Momentum" not in name}
    print(json.dumps({"loss": losses, "eval_loss": float(evaluation["loss"]),
                      "accuracy": float(evaluation["accuracy"]),
                      "global_step": int(evaluation["global_step"]), "variables": variables}))


if __name__ == "__main__":
    tf.app.run()
