"""An input_fn that lists its record files with TF-Slim's get_data_files (google-research/uda 2019).

UDA's image/data.py takes nothing else from slim: `tf.contrib.slim.parallel_reader.get_data_files(
prefix + "*")` per file prefix, then `parallel_interleave(TFRecordDataset)` over the list. Writes
three record shards into the model_dir, lists them the ways TF 1.15 allowed (a glob, a list of
globs and plain names, the deep module path) and what TF 1.15 raised for a pattern matching
nothing, then trains 3 steps and evaluates on the listed files. Prints one JSON line.
"""

import json
import os

import numpy as np
import tensorflow as tf
from tensorflow.contrib.slim.python.slim.data import parallel_reader

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints and the record shards go.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(5).randn(48, 4).astype(np.float32)
LABELS = (FEATURES[:, 1] > 0).astype(np.int64)


def write_shards(folder):
    for shard in range(3):
        with tf.io.TFRecordWriter(os.path.join(folder, "train-%d.tfrecord" % shard)) as writer:
            for row in range(shard, len(FEATURES), 3):
                example = tf.train.Example(features=tf.train.Features(feature={
                    "x": tf.train.Feature(float_list=tf.train.FloatList(value=FEATURES[row].tolist())),
                    "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(LABELS[row])]))}))
                writer.write(example.SerializeToString())


def make_input_fn(prefix, training):
    def input_fn(params):
        files = sorted(tf.contrib.slim.parallel_reader.get_data_files(prefix + "*"))
        dataset = tf.data.Dataset.from_tensor_slices(files)
        dataset = dataset.apply(tf.contrib.data.parallel_interleave(
            tf.data.TFRecordDataset, sloppy=False, cycle_length=3))
        if training:
            dataset = dataset.repeat()

        def parse(record):
            example = tf.parse_single_example(record, {"x": tf.FixedLenFeature([4], tf.float32),
                                                       "y": tf.FixedLenFeature([1], tf.int64)})
            return example["x"], tf.to_int32(tf.reshape(example["y"], []))
        return dataset.map(parse).batch(params["batch_size"], drop_remainder=True)
    return input_fn


def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features, 2, kernel_initializer=tf.constant_initializer(0.1))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def listed(names, folder):
    return sorted(os.path.relpath(name, folder) for name in names)


def main(argv):
    del argv
    folder = os.path.join(FLAGS.model_dir, "data")
    tf.gfile.MakeDirs(folder)
    write_shards(folder)
    prefix = os.path.join(folder, "train")
    result = {
        "glob": listed(tf.contrib.slim.parallel_reader.get_data_files(prefix + "-*"), folder),
        "question_mark": listed(tf.contrib.slim.parallel_reader.get_data_files(prefix + "-?.tfrecord"), folder),
        "mixed_list": listed(parallel_reader.get_data_files(
            [prefix + "-[01].tfrecord", os.path.join(folder, "not-checked")]), folder),
        "tuple_type": type(parallel_reader.get_data_files((prefix + "-0.tfrecord",))).__name__,
    }
    try:
        tf.contrib.slim.parallel_reader.get_data_files(os.path.join(folder, "none-*"))
    except ValueError as error:
        result["nothing_found"] = [type(error).__name__, str(error).replace(folder, "FOLDER")]
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=3))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(make_input_fn(prefix, True), max_steps=3)
    evaluation = estimator.evaluate(make_input_fn(prefix, False), steps=100)
    result["eval_loss"] = float(evaluation["loss"])
    result["eval_steps_global_step"] = int(evaluation["global_step"])
    print(json.dumps(result))


if __name__ == "__main__":
    tf.app.run()
