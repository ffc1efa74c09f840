"""Features whose first axis is not the batch (issue 17): TPU's transpose-input trick and
batch-less tensors, as TF 1.15 ran them.

input_fn batches the images and transposes them to [H, W, C, N] (the 2018-2019 TPU ResNet
trick for infeed throughput; model_fn transposes back), and adds a per-class weight vector and a
scalar that have no batch axis at all. TF 1.15 passed the shapes through as input_fn made them.
Trains and evaluates a small TPUEstimator; prints one JSON line.
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

IMAGES = np.random.RandomState(3).rand(32, 6, 6, 2).astype(np.float32)
LABELS = (IMAGES[:, :3, :, 0].mean(axis=(1, 2)) > 0.5).astype(np.int32)
CONV = np.random.RandomState(4).uniform(-0.3, 0.3, (3, 3, 2, 4)).astype(np.float32)
DENSE = np.random.RandomState(5).uniform(-0.3, 0.3, (16, 2)).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((IMAGES, LABELS)).repeat()
    dataset = dataset.batch(params["batch_size"], drop_remainder=True)

    def transpose_and_add(images, labels):
        return {"images": tf.transpose(images, [1, 2, 3, 0]),  # NHWC -> HWCN
                "class_weights": tf.constant([1.0, 2.0]),
                "scale": tf.constant(0.5)}, labels

    return dataset.map(transpose_and_add)


def model_fn(features, labels, mode, params):
    images = tf.transpose(features["images"], [3, 0, 1, 2])  # HWCN -> NHWC
    net = tf.layers.conv2d(images, 4, 3, activation=tf.nn.relu,
                           kernel_initializer=tf.constant_initializer(CONV))
    net = tf.layers.max_pooling2d(net, 2, 2)
    logits = tf.layers.dense(tf.layers.flatten(net), 2,
                             kernel_initializer=tf.constant_initializer(DENSE))
    weights = tf.gather(features["class_weights"], labels)
    loss = features["scale"] * tf.losses.sparse_softmax_cross_entropy(labels, logits, weights)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, tf.train.get_global_step())

    def metric_fn(labels, logits):
        return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           eval_metrics=(metric_fn, [labels, logits]))


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(
        model_dir=FLAGS.model_dir, tpu_config=tf.contrib.tpu.TPUConfig(
            iterations_per_loop=2,
            per_host_input_for_training=tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=4)
    metrics = estimator.evaluate(input_fn, steps=2)
    print(json.dumps({
        "eval_loss": float(metrics["loss"]),
        "eval_accuracy": float(metrics["accuracy"]),
        "conv": estimator.get_variable_value("conv2d/kernel").tolist(),
        "dense": estimator.get_variable_value("dense/kernel").tolist(),
    }))


if __name__ == "__main__":
    tf.app.run()
