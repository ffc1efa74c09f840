"""Two v1 optimizers in one TPUEstimator model_fn (GAN-style: TF-GAN, compare_gan; separately
trained heads): each minimizes its own loss over its own variables, the discriminator's step
(after the generator's) increments the global step.

Prints, as one JSON line, the step losses TPUEstimator wrote, the evaluation and the final
variables. TF 2.x's Tensor equality broke TF's own `apply_gradients` on the second optimizer
(its TRAIN_OP collection check), outside the compat runner.
"""

import glob
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(5).randn(64, 4).astype(np.float32)
LABELS = (FEATURES[:, 0] + FEATURES[:, 1] > 0).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
    with tf.variable_scope("generator"):
        fake = tf.layers.dense(features, 4, kernel_initializer=tf.constant_initializer(0.3),
                               name="g")
    with tf.variable_scope("discriminator"):
        layer = tf.layers.Dense(1, kernel_initializer=tf.constant_initializer(-0.2), name="d")
        real_logits = tf.squeeze(layer(features), 1)
        fake_logits = tf.squeeze(layer(fake), 1)
    d_loss = (tf.losses.sigmoid_cross_entropy(labels, real_logits)
              + tf.losses.sigmoid_cross_entropy(tf.zeros_like(labels), fake_logits))
    g_loss = tf.losses.sigmoid_cross_entropy(tf.ones_like(labels), fake_logits)
    loss = d_loss + g_loss
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss)
    d_vars = tf.trainable_variables("discriminator")
    g_vars = tf.trainable_variables("generator")
    g_step = tf.train.AdamOptimizer(0.05).minimize(g_loss, var_list=g_vars)
    # Ordered: unordered, TF 1.15's ref variables let the discriminator's update race the
    # generator's backward pass that reads it (measured, three runs: step-2 loss 2.1010966,
    # 2.1014850, 2.1010966). GAN code of the era ordered them the same way (TF-GAN's
    # get_sequential_train_hooks ran them one after the other).
    with tf.control_dependencies([g_step]):
        d_step = tf.train.GradientDescentOptimizer(0.5).minimize(
            d_loss, tf.train.get_global_step(), var_list=d_vars)
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=d_step)


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir, save_summary_steps=1,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=6)
    evaluation = estimator.evaluate(input_fn, steps=2)
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
    print(json.dumps({"loss": losses, "eval_loss": float(evaluation["loss"]),
                      "global_step": int(evaluation["global_step"]), "variables": variables}))


if __name__ == "__main__":
    tf.app.run()
