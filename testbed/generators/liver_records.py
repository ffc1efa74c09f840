"""UNet-3D's liver segmentation records (tensorflow/tpu models/official/unet3d, input_reader.LiverInputFn).

Each tf.Example holds `image/ct_image`: the raw float32 bytes of a D x D x D x 1 volume in [0, 1], and
`image/label`: the raw float32 bytes of its D x D x D x 3 one-hot mask (background, liver, lesion), as
data_preprocess/convert_lits.py wrote them; the files are GZIP TFRecords (`compressed_input`, the
default). The volume is noise with a brighter ball (class 1) holding a brighter core (class 2), so the
classes are learnable. D = 16: train-0000{0,1}.tfrecord (8 volumes each), eval-00000.tfrecord (4).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

SIZE = 16


def volume(rng: np.random.RandomState):
    grid = np.stack(np.meshgrid(*(np.arange(SIZE),) * 3, indexing="ij"), -1).astype(np.float32)
    centre = rng.uniform(5, SIZE - 5, size=3)
    distance = np.sqrt(((grid - centre) ** 2).sum(-1))
    classes = np.where(distance < 2.0, 2, np.where(distance < rng.uniform(3.5, 5.0), 1, 0))
    image = rng.uniform(0.0, 0.3, size=(SIZE, SIZE, SIZE)).astype(np.float32) + 0.3 * classes
    label = np.eye(3, dtype=np.float32)[classes]
    return image[..., None].astype(np.float32), label


def write(out: Path) -> None:
    import tensorflow as tf

    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    options = tf.io.TFRecordOptions(compression_type="GZIP")
    for name, count in (("train-00000", 8), ("train-00001", 8), ("eval-00000", 4)):
        with tf.io.TFRecordWriter(str(out / f"{name}.tfrecord"), options) as writer:
            for _ in range(count):
                image, label = volume(rng)
                example = tf.train.Example(features=tf.train.Features(feature={
                    "image/ct_image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image.tobytes()])),
                    "image/label": tf.train.Feature(bytes_list=tf.train.BytesList(value=[label.tobytes()])),
                }))
                writer.write(example.SerializeToString())


if __name__ == "__main__":
    write(Path(sys.argv[1]))
