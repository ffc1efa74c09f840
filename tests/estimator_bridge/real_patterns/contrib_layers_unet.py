"""tensorflow/tpu models/official/unet3d's model_fn in miniature (b818207, 2019-10): the whole
model_fn under `tf.variable_scope('unet', reuse=tf.AUTO_REUSE)`, `variable_scope('base')` then
`variable_scope('')` (hence TF 1.15's `unet/base//Conv/weights`), tf.contrib.layers.conv3d (with
instance_norm as normalizer_fn in one block), max_pool3d, conv3d_transpose and a 1x1x1 conv3d head, trained with
tf.contrib.opt.NadamOptimizer (unet3d's default), whose beta1_power/beta2_power TF 1.15 named in
the model_fn's name scope (`unet/beta1_power`). Seeded initializers (arg_scope), so every side
starts from TF 1.15's values.

Prints, as one JSON line, the step losses TPUEstimator wrote and the final variables.
"""

import glob
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

VOLUMES = np.random.RandomState(3).rand(8, 8, 8, 8, 1).astype(np.float32)
LABELS = (VOLUMES[..., 0] > 0.5).astype(np.int32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((VOLUMES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def block(inputs, filters, normalized):
    """unet3d's create_convolution_block: conv3d then relu; normalized, instance_norm takes the
    place of the biases (contrib's normalizer_fn: a bias before instance_norm has a zero
    gradient, which Nadam would turn into steps of rounding noise)."""
    return tf.contrib.layers.conv3d(
        inputs, filters, (3, 3, 3), stride=(1, 1, 1), padding="SAME", data_format="NDHWC",
        normalizer_fn=tf.contrib.layers.instance_norm if normalized else None)


def model_fn(features, labels, mode, params):
    with tf.variable_scope("unet", reuse=tf.AUTO_REUSE):
        with tf.variable_scope("base", reuse=tf.AUTO_REUSE), tf.variable_scope(""):
            with tf.contrib.framework.arg_scope(
                    [tf.contrib.layers.conv3d, tf.contrib.layers.conv3d_transpose],
                    weights_initializer=tf.truncated_normal_initializer(stddev=0.2, seed=7)):
                first = block(features, 2, normalized=False)
                pooled = tf.contrib.layers.max_pool3d(first, kernel_size=(2, 2, 2), stride=2,
                                                      padding="VALID", data_format="NDHWC")
                deep = block(pooled, 4, normalized=True)
                up = tf.contrib.layers.conv3d_transpose(deep, 4, (2, 2, 2), stride=(2, 2, 2))
                merged = block(tf.concat([up, first], axis=-1), 2, normalized=False)
                logits = tf.contrib.layers.conv3d(merged, 2, (1, 1, 1), data_format="NDHWC",
                                                  activation_fn=None)
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        optimizer = tf.contrib.opt.NadamOptimizer(learning_rate=0.01)
        train_op = optimizer.minimize(loss, tf.train.get_global_step())
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir, save_summary_steps=1,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=2)
    estimator.train(input_fn, max_steps=4)
    losses = {}
    for path in glob.glob(os.path.join(FLAGS.model_dir, "events.out.tfevents.*")):
        for event in tf.train.summary_iterator(path):
            for value in event.summary.value:
                if value.tag == "loss":
                    number = (value.simple_value if value.HasField("simple_value")
                              else float(tf.make_ndarray(value.tensor)))
                    losses[str(event.step)] = number
    variables = {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                 for name in estimator.get_variable_names() if name != "global_step"}
    print(json.dumps({"loss": losses, "variables": variables}))


if __name__ == "__main__":
    tf.app.run()
