"""A TPUEstimator CNN written with TF 1.15's tf.layers argument names (issue 17).

`tf.layers.Conv2D(filters, 3, activation="relu")`, initializers, regularizers and constraints by
name or config dict, functional and object forms, batch norm; trained 4 steps with UPDATE_OPS and
the regularization losses, then evaluated. Random initializers carry op seeds (RunConfig has no
tf_random_seed), so every side draws the same initial weights. Prints one JSON line.
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

IMAGES = np.random.RandomState(3).rand(32, 8, 8, 3).astype(np.float32)
LABELS = (IMAGES[:, :4, :, 0].mean(axis=(1, 2)) > 0.5).astype(np.int32)


def seeded(name, seed):
    return {"class_name": name, "config": {"seed": seed}}


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((IMAGES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
    training = mode == tf.estimator.ModeKeys.TRAIN
    net = tf.layers.Conv2D(8, 3, activation="relu", padding="same",
                           kernel_initializer=seeded("he_normal", 1), kernel_regularizer="l2",
                           kernel_constraint="max_norm")(features)
    net = tf.layers.batch_normalization(net, training=training, gamma_constraint="non_neg",
                                        beta_regularizer="l1")
    net = tf.layers.conv2d(net, 4, 3, strides=2, activation="elu",
                           kernel_initializer=seeded("glorot_uniform", 2), bias_initializer="ones")
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.flatten(net)
    net = tf.layers.dense(net, 16, activation="tanh", kernel_initializer=seeded("lecun_normal", 3),
                          kernel_regularizer={"class_name": "L1L2", "config": {"l2": 0.001}})
    logits = tf.layers.Dense(2, kernel_initializer=seeded("TruncatedNormal", 4),
                             activity_regularizer="l2")(net)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits) + tf.losses.get_regularization_loss()
    optimizer = tf.contrib.tpu.CrossShardOptimizer(tf.train.MomentumOptimizer(0.05, 0.9)) \
        if params["use_tpu"] else tf.train.MomentumOptimizer(0.05, 0.9)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = optimizer.minimize(loss, tf.train.get_global_step())

    def metric_fn(labels, logits):
        return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           eval_metrics=(metric_fn, [labels, logits]))


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
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
