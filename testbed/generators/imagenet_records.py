"""ImageNet-format TFRecords as tensorflow/tpu's imagenet_input.py (ResNet, EfficientNet, MnasNet)
reads them: `image/encoded` (JPEG), `image/class/label` (int64, 1..1000; the readers subtract 1).

Writes train-00000-of-00001 (64 images) and validation-00000-of-00001 (16) of 40x40 JPEGs: each
label paints a bright band at a label-dependent row over noise, so a few steps move the loss (the
programs' `--data_dir=null` feeds all-black images, whose batch-norm statistics are degenerate and
make every run's numbers noise). Runs with current TensorFlow (tf.io.encode_jpeg).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

SIZE = 40
CLASSES = 10  # labels 1..CLASSES of the 1000 ImageNet classes


def images(rng: np.random.RandomState, count: int):
    labels = rng.randint(1, CLASSES + 1, size=count)
    pictures = rng.randint(0, 60, size=(count, SIZE, SIZE, 3)).astype(np.uint8)
    for picture, label in zip(pictures, labels):
        row = 3 * int(label)
        picture[row:row + 3, 4:SIZE - 4, :] = 230
    return pictures, labels


def write(out: Path) -> None:
    import tensorflow as tf

    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    for name, count in (("train-00000-of-00001", 64), ("validation-00000-of-00001", 16)):
        pictures, labels = images(rng, count)
        with tf.io.TFRecordWriter(str(out / name)) as writer:
            for picture, label in zip(pictures, labels):
                encoded = tf.io.encode_jpeg(picture, quality=95).numpy()
                example = tf.train.Example(features=tf.train.Features(feature={
                    "image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[encoded])),
                    "image/class/label": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(label)])),
                }))
                writer.write(example.SerializeToString())


if __name__ == "__main__":
    write(Path(sys.argv[1]))
