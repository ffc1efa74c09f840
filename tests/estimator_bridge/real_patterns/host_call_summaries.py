"""host_call summaries the way 2018-2019 TPU programs wrote them (ResNet, EfficientNet, MnasNet):
the global step and the loss reshaped to [1] and written by tf.contrib.summary in host_call_fn.

Prints, as one JSON line, the scalars host_call wrote: {tag: {step: value}} read back from the
event files, and the per-step loss summaries TPUEstimator wrote (`loss`), so the steps at which
each side records each value can be compared (issue 17: one step late). `ordered_step` is a
read the program orders after train_op itself (TF 1.15: the incremented step). With
`--host_loss_tag=loss` host_call writes `loss` as tensorflow/tpu's ResNet did, and TF 1.15's
Estimator wrote its own loss summary as `loss_1` (its op name, made unique in the graph).
"""

import glob
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_integer("iterations", 2, "iterations_per_loop.")
flags.DEFINE_string("host_loss_tag", "host_loss",
                    "host_call's loss tag (`loss`: tensorflow/tpu ResNet's, which pushed TF 1.15's "
                    "Estimator loss summary to `loss_1`).")
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
    global_step = tf.train.get_global_step()
    learning_rate = tf.train.exponential_decay(0.5, global_step, 1, 0.9)
    train_op = tf.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step)

    def host_call_fn(gs, loss, lr, ordered_gs):
        gs = gs[0]
        with tf.contrib.summary.create_file_writer(FLAGS.model_dir, max_queue=100).as_default():
            with tf.contrib.summary.always_record_summaries():
                tf.contrib.summary.scalar(FLAGS.host_loss_tag, loss[0], step=gs)
                tf.contrib.summary.scalar("learning_rate", lr[0], step=gs)
                tf.contrib.summary.scalar("host_step", tf.cast(gs, tf.float32), step=gs)
                tf.contrib.summary.scalar("ordered_step", tf.cast(ordered_gs[0], tf.float32),
                                          step=gs)
                return tf.contrib.summary.all_summary_ops()

    with tf.control_dependencies([train_op]):  # a read the program orders after the step
        ordered_gs = tf.reshape(global_step.read_value(), [1])
    host_call = (host_call_fn, [tf.reshape(global_step, [1]), tf.reshape(loss, [1]),
                                tf.reshape(learning_rate, [1]), ordered_gs])
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           host_call=host_call)


def scalars(folder):
    """{tag: {step: value}} of every event file directly in folder (TF 1.15 and current TF)."""
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, "events.out.tfevents.*"))):
        for event in tf.train.summary_iterator(path):
            for value in event.summary.value:
                if value.HasField("simple_value"):
                    number = value.simple_value
                elif value.HasField("tensor"):
                    number = float(tf.make_ndarray(value.tensor))
                else:
                    continue
                found.setdefault(value.tag, {})[str(event.step)] = number
    return found


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(
        model_dir=FLAGS.model_dir, save_summary_steps=1,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=FLAGS.iterations))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8)
    estimator.train(input_fn, max_steps=6)
    found = scalars(FLAGS.model_dir)
    print(json.dumps({tag: found.get(tag, {}) for tag in
                      ("host_loss", "learning_rate", "host_step", "ordered_step", "loss", "loss_1")},
                     sort_keys=True))


if __name__ == "__main__":
    tf.app.run()
