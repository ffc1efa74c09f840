"""Flowers TFRecords in the format of training-data-analyst's fast-and-lean-data-science notebooks.

Each record holds `image` (a JPEG), `class` (int64) and `one_hot_class` (5 floats), in files named
`flowersNN-COUNT.tfrec` (the notebooks count their items from the name). Writes 6 files of 16
32x32 images (5 for training, 1 for validation at the notebooks' VALIDATION_SPLIT 0.19), each
image's brightness band set by its class so that a few steps move the loss. Runs with current
TensorFlow (tf.io.encode_jpeg, TFRecordWriter).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

SIZE = 32
FILES = 6
PER_FILE = 16


def write(out: Path) -> None:
    import tensorflow as tf

    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    for number in range(FILES):
        with tf.io.TFRecordWriter(str(out / f"flowers{number:02d}-{PER_FILE}.tfrec")) as writer:
            for _ in range(PER_FILE):
                label = int(rng.randint(5))
                image = (rng.rand(SIZE, SIZE, 3) * 60 + label * 40).astype(np.uint8)
                jpeg = tf.io.encode_jpeg(image, quality=100).numpy()
                example = tf.train.Example(features=tf.train.Features(feature={
                    "image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[jpeg])),
                    "class": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
                    "one_hot_class": tf.train.Feature(float_list=tf.train.FloatList(
                        value=np.eye(5, dtype=np.float32)[label].tolist())),
                }))
                writer.write(example.SerializeToString())


if __name__ == "__main__":
    write(Path(sys.argv[1]))
