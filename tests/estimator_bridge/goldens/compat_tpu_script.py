"""A TF 1.x-era TPUEstimator script, written as people wrote them (tf.contrib.tpu, tf.layers,
tf.flags, tf.app.run), used unchanged by the compat-runner tests.

`python compat_tpu_script.py --model_dir DIR` on TF 1.15 (oracle A) and
`python -m estimator_bridge.run compat_tpu_script.py --model_dir DIR` on current TensorFlow must
print the same JSON line: evaluation results and the final checkpoint's variables by TF1 name
(plus `tf.__version__`, which tells the oracle's golden from a current run).
`--spelling=compat_v1` switches to the TF 2.x-era spelling (`import tensorflow.compat.v1 as
tf`, `tf.estimator.tpu`), which TF 1.15 also accepts.
"""

import json
import sys

import numpy as np

if "--spelling=compat_v1" in sys.argv:
    import tensorflow.compat.v1 as tf
    tpu = tf.estimator.tpu
    CrossShardOptimizer = tf.tpu.CrossShardOptimizer
else:
    import tensorflow as tf
    tpu = tf.contrib.tpu
    CrossShardOptimizer = tf.contrib.tpu.CrossShardOptimizer

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_integer("train_steps", 6, "Training steps.")
flags.DEFINE_string("spelling", "contrib", "contrib or compat_v1.")
flags.DEFINE_bool("use_tpu", False, "Run on a TPU.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).randn(64, 6).astype(np.float32)
LABELS = ((FEATURES[:, 0] > 0).astype(np.int32) + (FEATURES[:, 2] > 0.5).astype(np.int32))
KERNEL_1 = np.random.RandomState(4).uniform(-0.5, 0.5, (6, 8)).astype(np.float32)
KERNEL_2 = np.random.RandomState(5).uniform(-0.5, 0.5, (8, 3)).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().apply(
        tf.contrib.data.batch_and_drop_remainder(params["batch_size"])
        if FLAGS.spelling == "contrib" else lambda d: d.batch(params["batch_size"], True))


def metric_fn(labels, logits):
    return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}


def model_fn(features, labels, mode, params):
    is_training = mode == tf.estimator.ModeKeys.TRAIN
    hidden = tf.layers.dense(features, 8, kernel_initializer=tf.constant_initializer(KERNEL_1))
    hidden = tf.layers.batch_normalization(hidden, training=is_training)
    hidden = tf.nn.relu(hidden)
    hidden = tf.layers.dropout(hidden, rate=0.0, training=is_training)
    logits = tf.layers.dense(hidden, 3, kernel_initializer=tf.constant_initializer(KERNEL_2))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = None
    if is_training:
        optimizer = tf.train.MomentumOptimizer(0.1, momentum=0.9)
        if params["use_tpu"]:
            optimizer = CrossShardOptimizer(optimizer)
        with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
            train_op = optimizer.minimize(loss, tf.train.get_global_step())
    return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                eval_metrics=(metric_fn, [labels, logits]))


def main(argv):
    del argv
    tf.logging.set_verbosity(tf.logging.ERROR)
    config = tpu.RunConfig(model_dir=FLAGS.model_dir,
                           tpu_config=tpu.TPUConfig(iterations_per_loop=2))
    estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=FLAGS.use_tpu,
                                 train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=FLAGS.train_steps)
    metrics = estimator.evaluate(input_fn, steps=2)
    reader = tf.train.load_checkpoint(FLAGS.model_dir)
    variables = {name: np.asarray(reader.get_tensor(name)).astype(np.float64).tolist()
                 for name in sorted(reader.get_variable_to_shape_map())
                 if name.startswith(("dense", "batch_normalization"))}
    print(json.dumps({
        "eval_loss": float(metrics["loss"]),
        "eval_accuracy": float(metrics["accuracy"]),
        "global_step": int(metrics["global_step"]),
        "tensorflow": tf.__version__,
        "variables": variables,
    }, sort_keys=True))


if __name__ == "__main__":
    tf.app.run()
