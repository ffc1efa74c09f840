"""MNIST-shaped TFRecords (28x28 uint8 `image_raw`, int64 `label`) as tensorflow/tpu's mnist_tpu.py reads them.

Writes train.tfrecords (512), validation.tfrecords (128), test.tfrecords (32): each image is a
noisy stroke whose position encodes the label, so a few steps of training already move the loss.
Runs with current TensorFlow (tf.io.TFRecordWriter, tf.train.Example).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def images(rng: np.random.RandomState, count: int):
    labels = rng.randint(0, 10, size=count)
    pictures = rng.randint(0, 40, size=(count, 28, 28)).astype(np.uint8)
    for picture, label in zip(pictures, labels):
        row = 2 + 2 * int(label)
        picture[row:row + 3, 4:24] = 255
    return pictures, labels


def write(out: Path) -> None:
    import tensorflow as tf

    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    for name, count in (("train", 512), ("validation", 128), ("test", 32)):
        pictures, labels = images(rng, count)
        with tf.io.TFRecordWriter(str(out / f"{name}.tfrecords")) as writer:
            for picture, label in zip(pictures, labels):
                example = tf.train.Example(features=tf.train.Features(feature={
                    "image_raw": tf.train.Feature(bytes_list=tf.train.BytesList(value=[picture.tobytes()])),
                    "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(label)])),
                }))
                writer.write(example.SerializeToString())


if __name__ == "__main__":
    write(Path(sys.argv[1]))
