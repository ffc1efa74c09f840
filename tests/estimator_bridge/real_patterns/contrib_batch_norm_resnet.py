"""A 2018-style TPUEstimator ResNet block built with tf.contrib.layers (issue 17).

The pattern of 2018 TPU/GPU ResNets before tf.layers took over: `batch_norm_relu` calling
`tf.contrib.layers.batch_norm(inputs, decay=..., epsilon=..., center=True, scale=True,
is_training=is_training, fused=True)` with `is_training = mode == TRAIN` (a Python bool), the
moving averages in UPDATE_OPS and the train_op under `tf.control_dependencies(update_ops)`;
contrib conv2d without biases (projection shortcut, 3x3 convolutions) under arg_scope, a
`functools.partial(batch_norm, updates_collections=None, ...)` normalizer_fn (the DCGAN-era
in-place form, here with `is_training` as a tensor, so both branches are built), a separable
convolution, a bias_add head and l2_regularizer on the weights. Trained 4 steps (Momentum), then
evaluated (the inference branch: moving statistics). Seeded initializers, so every side starts
from TF 1.15's values. Prints one JSON line. On the bridge also with --use_tpu=true
--num_shards=2 under `python -m estimator_bridge.tpu_emulation --cores 2` (each replica updates its
own moving statistics).
"""

import functools
import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_bool("use_tpu", False, "TPUEstimator's use_tpu.")
flags.DEFINE_integer("num_shards", 1, "TPUConfig's num_shards.")
FLAGS = flags.FLAGS

IMAGES = np.random.RandomState(5).rand(32, 8, 8, 3).astype(np.float32)
LABELS = (IMAGES[:, :4, :, 0].mean(axis=(1, 2)) > 0.5).astype(np.int32)
BATCH_NORM_DECAY = 0.9
BATCH_NORM_EPSILON = 1e-5


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((IMAGES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def batch_norm_relu(inputs, is_training, relu=True, init_zero=False):
    gamma_initializer = tf.zeros_initializer() if init_zero else tf.ones_initializer()
    inputs = tf.contrib.layers.batch_norm(
        inputs, decay=BATCH_NORM_DECAY, epsilon=BATCH_NORM_EPSILON, center=True, scale=True,
        is_training=is_training, fused=True, param_initializers={"gamma": gamma_initializer})
    return tf.nn.relu(inputs) if relu else inputs


def residual_block(inputs, filters, is_training, strides):
    shortcut = tf.contrib.layers.conv2d(inputs, filters, 1, stride=strides, activation_fn=None,
                                        scope="shortcut")
    shortcut = batch_norm_relu(shortcut, is_training, relu=False)
    net = tf.contrib.layers.conv2d(inputs, filters, 3, stride=strides, activation_fn=None)
    net = batch_norm_relu(net, is_training)
    net = tf.contrib.layers.conv2d(net, filters, 3, activation_fn=None)
    net = batch_norm_relu(net, is_training, relu=False, init_zero=True)
    return tf.nn.relu(net + shortcut)


def model_fn(features, labels, mode, params):
    is_training = mode == tf.estimator.ModeKeys.TRAIN
    training_tensor = tf.placeholder_with_default(is_training, [], name="is_training")
    in_place_norm = functools.partial(tf.contrib.layers.batch_norm, decay=0.8, scale=True,
                                      updates_collections=None, is_training=training_tensor)
    with tf.contrib.framework.arg_scope(
            [tf.contrib.layers.conv2d, tf.contrib.layers.separable_conv2d],
            weights_initializer=tf.truncated_normal_initializer(stddev=0.2, seed=7),
            weights_regularizer=tf.contrib.layers.l2_regularizer(1e-4), biases_initializer=None):
        net = tf.contrib.layers.conv2d(features, 8, 3, normalizer_fn=in_place_norm,
                                       scope="initial_conv")
        with tf.variable_scope("block1"):
            net = residual_block(net, 8, is_training, strides=2)
        net = tf.contrib.layers.separable_conv2d(net, 6, 3, activation_fn=None, scope="sep")
        net = batch_norm_relu(net, is_training)
    net = tf.reduce_mean(net, axis=[1, 2])
    logits = tf.contrib.layers.fully_connected(
        net, 2, activation_fn=None, biases_initializer=None,
        weights_initializer=tf.truncated_normal_initializer(stddev=0.2, seed=8))
    logits = tf.contrib.layers.bias_add(logits)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits) + tf.losses.get_regularization_loss()
    optimizer = tf.train.MomentumOptimizer(0.05, 0.9)
    if params["use_tpu"]:  # TF 1.15 has no CPU kernel for its cross_replica_sum
        optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        train_op = optimizer.minimize(loss, tf.train.get_global_step())

    def metric_fn(labels, logits):
        return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           eval_metrics=(metric_fn, [labels, logits]))


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(
                                          iterations_per_loop=2, num_shards=FLAGS.num_shards))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=FLAGS.use_tpu,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=4)
    metrics = estimator.evaluate(input_fn, steps=2)
    reader = tf.train.load_checkpoint(FLAGS.model_dir)
    print(json.dumps({
        "eval_loss": float(metrics["loss"]),
        "eval_accuracy": float(metrics["accuracy"]),
        "variables": {name: np.asarray(reader.get_tensor(name)).astype(np.float64).tolist()
                      for name in sorted(reader.get_variable_to_shape_map())
                      if not name.endswith("Momentum") and name != "global_step"},
    }))


if __name__ == "__main__":
    tf.app.run()
