"""Layer functions declared with @add_arg_scope and configured with arg_scope (UDA, AutoAugment).

The program's own conv/batch_norm helpers take their defaults from nested arg_scopes (a saved
scope re-entered too), imported the ways real code did: `tf.contrib.framework.arg_scope` and
`from tensorflow.contrib.framework.python.ops import add_arg_scope`. Trained 3 steps on the
TPUEstimator CPU path, then evaluated. Prints one JSON line (values the scopes chose, losses and
variables).
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib.framework.python.ops import add_arg_scope

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

arg_scope = tf.contrib.framework.arg_scope
IMAGES = np.random.RandomState(11).rand(16, 6, 6, 2).astype(np.float32)
LABELS = (IMAGES[:, :3, :, 0].mean(axis=(1, 2)) > 0.5).astype(np.int32)
CHOSEN = {}


@add_arg_scope
def conv2d(inputs, filters, kernel_size, stride=1, scope="conv", seed=0, activation=None):
    CHOSEN.setdefault(scope, {"stride": stride, "activation": getattr(activation, "__name__", None)})
    with tf.variable_scope(scope):
        kernel = tf.get_variable("weights", [kernel_size, kernel_size, inputs.shape[-1], filters],
                                 initializer=tf.glorot_uniform_initializer(seed=seed))
        net = tf.nn.conv2d(inputs, kernel, [1, stride, stride, 1], "SAME")
        return activation(net) if activation else net


@add_arg_scope
def batch_norm(inputs, decay=0.999, epsilon=0.001, is_training=True, scope="bn"):
    CHOSEN.setdefault(scope, {"decay": decay, "epsilon": epsilon, "is_training": is_training})
    return tf.layers.batch_normalization(inputs, momentum=decay, epsilon=epsilon,
                                         training=is_training, name=scope)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((IMAGES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
    is_training = mode == tf.estimator.ModeKeys.TRAIN
    with arg_scope([batch_norm], decay=0.9, is_training=is_training) as bn_scope:
        with arg_scope([conv2d], activation=tf.nn.relu):
            net = batch_norm(conv2d(features, 4, 3, scope="conv1", seed=1), scope="bn1")
            net = conv2d(net, 4, 3, stride=2, scope="conv2", seed=2)
    with arg_scope(bn_scope):
        net = batch_norm(net, epsilon=1e-5, scope="bn2")
    logits = tf.layers.dense(tf.layers.flatten(net), 2,
                             kernel_initializer=tf.glorot_uniform_initializer(seed=3))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, tf.train.get_global_step())

    def metric_fn(labels, logits):
        return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           eval_metrics=(metric_fn, [labels, logits]))


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=3))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=3)
    trained_with = json.loads(json.dumps(CHOSEN))
    metrics = estimator.evaluate(input_fn, steps=2)
    reader = tf.train.load_checkpoint(FLAGS.model_dir)
    print(json.dumps({
        "chosen_in_training": trained_with,
        "has_arg_scope": [tf.contrib.framework.has_arg_scope(conv2d),
                          tf.contrib.framework.has_arg_scope(input_fn)],
        "eval_loss": float(metrics["loss"]),
        "variables": {name: np.asarray(reader.get_tensor(name)).astype(np.float64).tolist()
                      for name in sorted(reader.get_variable_to_shape_map())
                      if not name.endswith("Momentum") and name != "global_step"},
    }))


if __name__ == "__main__":
    tf.app.run()
