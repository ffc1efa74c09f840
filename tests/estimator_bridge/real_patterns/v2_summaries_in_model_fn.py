"""google-research/simclr's run.py/model.py/resnet.py (2020, TF 1.15): what its TPUEstimator model_fn does
besides the model.

- In TRAIN it opens a TF 2 summary writer on model_dir (`tf.compat.v2.summary.create_file_writer`),
  puts `writer.init()` in a control dependency, writes `tf2.summary.scalar`s under
  `record_if(global_step % N == 0)` and makes the train op wait for
  `tf.summary.all_v2_summary_ops()`.
- Its ResNet puts the trainable variables of each block in a collection, finding the new ones with
  `var in trainable_variables[j]` (TF1's identity `==` between variables).

Prints, as one JSON line, the v2 summaries (tag -> step -> value) and the `loss` TPUEstimator wrote,
the block collections' sizes, the evaluation and the final variables.
"""

import glob
import json
import os

import numpy as np
import tensorflow as tf
import tensorflow.compat.v2 as tf2

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(7).randn(64, 4).astype(np.float32)
LABELS = (FEATURES[:, 0] - FEATURES[:, 2] > 0).astype(np.int32)
SUMMARY_STEPS = 2


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def filter_trainable_variables(trainable_variables, after_block):
    """resnet.py's: the variables made since the previous blocks."""
    trainable_variables[after_block] = []
    for var in tf.trainable_variables():
        to_keep = True
        for j in range(after_block):
            if var in trainable_variables[j]:
                to_keep = False
                break
        if to_keep:
            trainable_variables[after_block].append(var)


def model_fn(features, labels, mode, params):
    trainable_variables = {}
    with tf.variable_scope("block1"):
        hidden = tf.layers.dense(features, 8, activation=tf.nn.relu,
                                 kernel_initializer=tf.constant_initializer(0.1))
    filter_trainable_variables(trainable_variables, 0)
    with tf.variable_scope("block2"):
        logits = tf.layers.dense(hidden, 2, kernel_initializer=tf.constant_initializer(-0.05))
    filter_trainable_variables(trainable_variables, 1)
    for j, variables in trainable_variables.items():
        for var in variables:
            tf.add_to_collection("trainable_variables_inblock_%d" % j, var)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode != tf.estimator.ModeKeys.TRAIN:
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), labels),
                                      tf.float32))
    summary_writer = tf2.summary.create_file_writer(FLAGS.model_dir)
    with tf.control_dependencies([summary_writer.init()]):
        with summary_writer.as_default():
            should_record = tf.math.equal(
                tf.math.floormod(tf.train.get_global_step(), SUMMARY_STEPS), 0)
            with tf2.summary.record_if(should_record):
                tf2.summary.scalar("train_loss_v2", loss, step=tf.train.get_global_step())
                tf2.summary.scalar("train_accuracy", accuracy, step=tf.train.get_global_step())
    control_deps = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    control_deps.extend(tf.summary.all_v2_summary_ops())
    with tf.control_dependencies(control_deps):
        train_op = tf.train.MomentumOptimizer(0.2, 0.9).minimize(
            loss, global_step=tf.train.get_or_create_global_step(),
            var_list=tf.get_collection("trainable_variables_inblock_1"))
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def read_events(pattern):
    summaries = {}
    for path in glob.glob(os.path.join(FLAGS.model_dir, pattern)):
        for event in tf.train.summary_iterator(path):
            for value in event.summary.value:
                number = (value.simple_value if value.HasField("simple_value")
                          else float(tf.make_ndarray(value.tensor)))
                summaries.setdefault(value.tag, {})[str(event.step)] = number
    return summaries


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir, save_summary_steps=1,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=3))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=6)
    evaluation = estimator.evaluate(input_fn, steps=2)
    summaries = read_events("events.out.tfevents.*")
    variables = {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                 for name in estimator.get_variable_names() if name != "global_step"}
    print(json.dumps({"summaries": {tag: summaries[tag] for tag in ("loss", "train_loss_v2", "train_accuracy")
                                    if tag in summaries},
                      "eval_loss": float(evaluation["loss"]), "global_step": int(evaluation["global_step"]),
                      "variables": variables}))


if __name__ == "__main__":
    tf.app.run()
