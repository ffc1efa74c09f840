"""tensorflow/tpu models/official/amoeba_net (bbe1c37, 2020-02) in miniature: evaluation of the
exponential moving averages through an evaluation hook, and a batch norm written on
tf.contrib.framework.variable.

AmoebaNet's `network_utils.batch_norm` creates beta/gamma with `contrib_framework.variable(...,
collections=[MODEL_VARIABLES, GLOBAL_VARIABLES])` and its moving statistics in
MOVING_AVERAGE_VARIABLES; training applies `ExponentialMovingAverage(0.9, num_updates=global_step)`
to `trainable_variables() + moving_average_variables()`; `evaluate(hooks=[LoadEMAHook(model_dir,
decay)])` restores the averages into the model's variables: the hook's begin() builds
`ema.variables_to_restore()` and `contrib_framework.assign_from_checkpoint_fn(latest_checkpoint,
...)`, its after_create_session calls the returned function with the session. `--hook=saver` does
the same with a plain `tf.train.Saver(...).restore(session, path)` in the hook. Each round trains,
evaluates the raw weights (no hook), then the averages (the hook), so an average left in a variable
would show in the next round. Prints, as one JSON line, the evaluations and the final variables.
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib import framework as contrib_framework

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_enum("hook", "contrib", ["contrib", "saver"], "How the hook loads the averages.")
FLAGS = flags.FLAGS

DECAY = 0.9
FEATURES = np.random.RandomState(3).randn(32, 2, 2, 3).astype(np.float32)
LABELS = (FEATURES[:, 0, 0, 0] > 0).astype(np.int32)
KERNEL = np.random.RandomState(4).uniform(-0.5, 0.5, (12, 2)).astype(np.float32)


def input_fn(params):
    del params
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(8, drop_remainder=True)


def batch_norm(inputs, is_training, scope):
    """network_utils.batch_norm's variables and update, NHWC, no cross-replica sums."""
    with tf.variable_scope(scope, "BatchNorm", [inputs]):
        params_shape = inputs.get_shape()[-1:]
        collections = [tf.GraphKeys.MODEL_VARIABLES, tf.GraphKeys.GLOBAL_VARIABLES]
        beta = contrib_framework.variable("beta", params_shape, collections=collections,
                                          initializer=tf.zeros_initializer(), trainable=True)
        gamma = contrib_framework.variable("gamma", params_shape, collections=collections,
                                           initializer=tf.ones_initializer(), trainable=True)
        moving_collections = ["moving_vars", tf.GraphKeys.MOVING_AVERAGE_VARIABLES,
                              tf.GraphKeys.MODEL_VARIABLES, tf.GraphKeys.GLOBAL_VARIABLES]
        moving_mean = contrib_framework.variable("moving_mean", params_shape, trainable=False,
                                                 initializer=tf.zeros_initializer(),
                                                 collections=moving_collections)
        moving_variance = contrib_framework.variable("moving_variance", params_shape, trainable=False,
                                                     initializer=tf.ones_initializer(),
                                                     collections=moving_collections)
        if is_training:
            mean, variance = tf.nn.moments(inputs, [0, 1, 2])
            tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, tf.assign(
                moving_mean, moving_mean * 0.9 + mean * 0.1))
            tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, tf.assign(
                moving_variance, moving_variance * 0.9 + variance * 0.1))
        else:
            mean, variance = moving_mean, moving_variance
        return tf.nn.batch_normalization(inputs, mean, variance, beta, gamma, 1e-5)


def model_fn(features, labels, mode, params):
    del params
    is_training = mode == tf.estimator.ModeKeys.TRAIN
    net = batch_norm(features, is_training, "bn")
    kernel = contrib_framework.model_variable("logits/weights", [12, 2],
                                              initializer=tf.constant_initializer(KERNEL))
    logits = tf.matmul(tf.reshape(net, [-1, 12]), kernel)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = None
    if is_training:
        global_step = tf.train.get_or_create_global_step()
        with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
            train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step)
        ema = tf.train.ExponentialMovingAverage(decay=DECAY, num_updates=global_step)
        with tf.control_dependencies([train_op]):
            train_op = ema.apply(tf.trainable_variables() + tf.moving_average_variables())
    metrics = {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)


class LoadEMAHook(tf.train.SessionRunHook):
    """amoeba_net_model.LoadEMAHook (`--hook=saver`: the Saver written out by hand)."""

    def __init__(self, model_dir, moving_average_decay, use_contrib):
        super(LoadEMAHook, self).__init__()
        self._model_dir = model_dir
        self.moving_average_decay = moving_average_decay
        self._use_contrib = use_contrib

    def begin(self):
        ema = tf.train.ExponentialMovingAverage(self.moving_average_decay)
        variables_to_restore = ema.variables_to_restore()
        checkpoint = tf.train.latest_checkpoint(self._model_dir)
        if self._use_contrib:
            self._load_ema = contrib_framework.assign_from_checkpoint_fn(checkpoint, variables_to_restore)
        else:
            saver = tf.train.Saver(variables_to_restore)
            self._load_ema = lambda session: saver.restore(session, checkpoint)

    def after_create_session(self, sess, coord):
        tf.logging.info("Reloading EMA...")
        self._load_ema(sess)


def main(argv):
    del argv
    config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, save_checkpoints_steps=3)
    estimator = tf.estimator.Estimator(model_fn=model_fn, config=config)
    hooks = [LoadEMAHook(FLAGS.model_dir, DECAY, FLAGS.hook == "contrib")]
    evaluations = {}
    for max_steps in (3, 6):
        estimator.train(input_fn, max_steps=max_steps)
        for name, eval_hooks in (("raw", []), ("averaged", hooks)):
            metrics = estimator.evaluate(input_fn, steps=2, hooks=eval_hooks, name=name)
            evaluations[f"{name}_{max_steps}"] = {key: float(value) for key, value in metrics.items()}
    names = [name for name in estimator.get_variable_names() if not name.startswith("global_step")]
    print(json.dumps({
        "evaluations": evaluations,
        "variables": {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                      for name in names},
    }))


if __name__ == "__main__":
    tf.app.run()
