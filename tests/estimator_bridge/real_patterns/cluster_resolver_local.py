"""The first lines of most 2018-2020 TPU scripts, run on CPU the way TF 1.15 allowed.

`--tpu=` (empty) with `--use_tpu=False`: TF 1.15's TPUClusterResolver read the empty name as the
local session (master ''), and the TPUEstimator trained on the CPU. Prints the resolver's view
and the trained model's numbers as one JSON line. Without `--tpu` at all TF 1.15 raised
`ValueError: Please provide a TPU Name to connect to.` (no TPU_NAME in the environment).
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("tpu", None, "The Cloud TPU to use (empty: the local session).")
flags.DEFINE_string("tpu_zone", None, "GCE zone of the TPU.")
flags.DEFINE_string("gcp_project", None, "GCP project of the TPU.")
flags.DEFINE_bool("use_tpu", False, "Run on a TPU.")
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_string("spelling", "contrib", "contrib | distribute | deep: how the class is named.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).randn(64, 6).astype(np.float32)
LABELS = (FEATURES[:, 0] > 0).astype(np.int32)
KERNEL = np.random.RandomState(4).uniform(-0.5, 0.5, (6, 2)).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features, 2, kernel_initializer=tf.constant_initializer(KERNEL))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    optimizer = tf.train.GradientDescentOptimizer(0.5)
    if params["use_tpu"]:
        optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
    train_op = optimizer.minimize(loss, tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def resolver_class():
    if FLAGS.spelling == "distribute":
        return tf.distribute.cluster_resolver.TPUClusterResolver
    if FLAGS.spelling == "deep":
        from tensorflow.contrib.cluster_resolver.python.training import tpu_cluster_resolver
        return tpu_cluster_resolver.TPUClusterResolver
    return tf.contrib.cluster_resolver.TPUClusterResolver


def main(argv):
    del argv
    resolver = resolver_class()(FLAGS.tpu, zone=FLAGS.tpu_zone, project=FLAGS.gcp_project)
    config = tf.contrib.tpu.RunConfig(
        cluster=resolver, model_dir=FLAGS.model_dir,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.contrib.tpu.TPUEstimator(
        model_fn=model_fn, config=config, use_tpu=FLAGS.use_tpu, train_batch_size=8,
        eval_batch_size=8)
    estimator.train(input_fn, max_steps=4)
    metrics = estimator.evaluate(input_fn, steps=2)
    print(json.dumps({
        "master": resolver.master(),
        "cluster_spec": repr(resolver.cluster_spec()),
        "eval_loss": float(metrics["loss"]),
        "global_step": int(metrics["global_step"]),
        "kernel": estimator.get_variable_value("dense/kernel").tolist(),
    }))


if __name__ == "__main__":
    tf.app.run()
