"""A tf.layers.BatchNormalization subclass overriding `_moments` (tensorflow/tpu EfficientNet, MnasNet).

Their `TpuBatchNormalization` requires `fused=False` and overrides the Keras-1 hook `_moments`
to average the batch moments across TPU replicas (after `super()._moments`); a second subclass
only renames the layer. Here the override applies Bessel's correction to the variance, so a side
that never called it would train to other numbers, and the variables must keep TF 1.15's names
(`tpu_batch_normalization/...` from the subclass's own class name: released checkpoints use them). Trained 3 Momentum steps on the TPUEstimator
CPU path, then evaluated. Prints one JSON line (the override's calls, losses and variables).
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.python.tpu import tpu_function

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

IMAGES = np.random.RandomState(5).rand(16, 6, 6, 3).astype(np.float32)
LABELS = (IMAGES[:, :3, :, 0].mean(axis=(1, 2)) > 0.5).astype(np.int32)
CALLS = []


class TpuBatchNormalization(tf.layers.BatchNormalization):
    """EfficientNet's shape: fused refused, `_moments` overridden on top of super()'s."""

    def __init__(self, fused=False, **kwargs):
        if fused in (True, None):
            raise ValueError("TpuBatchNormalization does not support fused=True.")
        super(TpuBatchNormalization, self).__init__(fused=fused, **kwargs)

    def _moments(self, inputs, reduction_axes, keep_dims):
        shard_mean, shard_variance = super(TpuBatchNormalization, self)._moments(
            inputs, reduction_axes, keep_dims=keep_dims)
        num_shards = tpu_function.get_tpu_context().number_of_shards or 1
        CALLS.append({"rank": inputs.shape.ndims, "reduction_axes": list(reduction_axes),
                      "keep_dims": keep_dims, "num_shards": num_shards})
        count = 1
        for axis in reduction_axes:
            count *= int(inputs.shape[axis])
        return shard_mean, shard_variance * (count / (count - 1.0))


class BatchNormalization(tf.layers.BatchNormalization):
    """EfficientNet's: the default name of TpuBatchNormalization, nothing else changed."""

    def __init__(self, name="tpu_batch_normalization", **kwargs):
        super(BatchNormalization, self).__init__(name=name, **kwargs)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((IMAGES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
    training = mode == tf.estimator.ModeKeys.TRAIN
    net = tf.layers.conv2d(features, 4, 3, padding="same", use_bias=False,
                           kernel_initializer=tf.glorot_uniform_initializer(seed=1))
    net = tf.nn.relu(TpuBatchNormalization(axis=-1, momentum=0.9, epsilon=1e-3)(net, training=training))
    net = tf.layers.conv2d(net, 4, 3, strides=2, use_bias=False,
                           kernel_initializer=tf.glorot_uniform_initializer(seed=2))
    net = tf.nn.relu(BatchNormalization(axis=-1, momentum=0.9)(net, training=training))
    net = tf.layers.flatten(net)
    net = TpuBatchNormalization(name="dense_bn", momentum=0.8)(net, training=training)
    logits = tf.layers.dense(net, 2, kernel_initializer=tf.glorot_uniform_initializer(seed=3))
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
    calls_in_training = sorted({json.dumps(call, sort_keys=True) for call in CALLS})
    del CALLS[:]
    metrics = estimator.evaluate(input_fn, steps=2)
    reader = tf.train.load_checkpoint(FLAGS.model_dir)
    print(json.dumps({
        "moments_calls_in_training": calls_in_training,
        "moments_calls_in_evaluation": len(CALLS),
        "eval_loss": float(metrics["loss"]),
        "variables": {name: np.asarray(reader.get_tensor(name)).astype(np.float64).tolist()
                      for name in sorted(reader.get_variable_to_shape_map())
                      if not name.endswith("Momentum") and name != "global_step"},
    }))


if __name__ == "__main__":
    tf.app.run()
