"""Batch norm whose moving averages the train_op does not wait for (tensorflow/models research/slim
train_image_classifier.py before its `tf.control_dependencies(update_ops)`, many inception_v3
copies): `train_op = optimizer.minimize(loss)` alone. TF 1.15's session.run(train_op) ran only what
train_op needed, so the moving mean and variance stayed at their initial values; with the control
dependency they move.

Trains one TPUEstimator (CPU path) per variant, 3 steps each, and prints, as one JSON line, each
variant's moving mean and variance and its last loss.
"""

import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go (one subdirectory per variant).")
flags.DEFINE_bool("use_tpu", False, "TPUEstimator's use_tpu.")
flags.DEFINE_integer("num_shards", None, "TPUConfig's num_shards.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).randn(32, 4).astype(np.float32) * 2.0 + 1.0
LABELS = (FEATURES[:, 0] > 1.0).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def model_fn_waiting(wait_for_update_ops):
    def model_fn(features, labels, mode, params):
        hidden = tf.layers.dense(features, 3, kernel_initializer=tf.constant_initializer(0.5))
        hidden = tf.layers.batch_normalization(hidden, momentum=0.5,
                                               training=mode == tf.estimator.ModeKeys.TRAIN)
        logits = tf.squeeze(tf.layers.dense(hidden, 1, kernel_initializer=tf.constant_initializer(0.2)), 1)
        loss = tf.losses.sigmoid_cross_entropy(labels, logits)
        optimizer = tf.train.GradientDescentOptimizer(0.1)
        if FLAGS.use_tpu:
            optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
        if wait_for_update_ops:
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                train_op = optimizer.minimize(loss, tf.train.get_global_step())
        else:
            train_op = optimizer.minimize(loss, tf.train.get_global_step())
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)
    return model_fn


def train(wait_for_update_ops):
    model_dir = os.path.join(FLAGS.model_dir, "waiting" if wait_for_update_ops else "not_waiting")
    config = tf.contrib.tpu.RunConfig(model_dir=model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=1,
                                                                          num_shards=FLAGS.num_shards))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn_waiting(wait_for_update_ops), config=config,
                                            use_tpu=FLAGS.use_tpu, train_batch_size=8)
    estimator.train(input_fn, max_steps=3)
    return {name.rsplit("/", 1)[-1]: np.asarray(estimator.get_variable_value(name)).tolist()
            for name in estimator.get_variable_names() if "moving_" in name}


def main(argv):
    del argv
    print(json.dumps({"not_waiting": train(False), "waiting": train(True)}))


if __name__ == "__main__":
    tf.app.run()
