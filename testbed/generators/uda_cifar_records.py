"""CIFAR-10-shaped TFRecords as google-research/uda's image/data.py reads them (its preprocess.py's format).

Writes train-size_64.tfrecord (64 labelled examples: `image` 32*32*3 float32, `label` int64 [1]),
unsup-0.tfrecord (64 pairs `ori_image`/`aug_image`, the augmented copy a noisy version of the
original) and test.tfrecord (32 labelled examples). Each image is noise with a bright column whose
position encodes the label, so a few steps of training already move the loss. Runs with current
TensorFlow (tf.io.TFRecordWriter, tf.train.Example).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def images(rng: np.random.RandomState, count: int):
    labels = rng.randint(0, 10, size=count)
    pictures = rng.uniform(-0.5, 0.5, size=(count, 32, 32, 3)).astype(np.float32)
    for picture, label in zip(pictures, labels):
        column = 3 + 3 * int(label)
        picture[:, column:column + 2, :] = 1.0
    return pictures, labels


def _floats(values: np.ndarray):
    import tensorflow as tf

    return tf.train.Feature(float_list=tf.train.FloatList(value=values.reshape(-1).tolist()))


def write(out: Path) -> None:
    import tensorflow as tf

    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    for name, count in (("train-size_64", 64), ("test", 32)):
        pictures, labels = images(rng, count)
        with tf.io.TFRecordWriter(str(out / f"{name}.tfrecord")) as writer:
            for picture, label in zip(pictures, labels):
                example = tf.train.Example(features=tf.train.Features(feature={
                    "image": _floats(picture),
                    "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(label)])),
                }))
                writer.write(example.SerializeToString())
    pictures, _ = images(rng, 64)
    with tf.io.TFRecordWriter(str(out / "unsup-0.tfrecord")) as writer:
        for picture in pictures:
            augmented = np.clip(picture + rng.normal(0, 0.2, size=picture.shape), -1, 1).astype(np.float32)
            example = tf.train.Example(features=tf.train.Features(feature={
                "ori_image": _floats(picture), "aug_image": _floats(augmented)}))
            writer.write(example.SerializeToString())


if __name__ == "__main__":
    write(Path(sys.argv[1]))
