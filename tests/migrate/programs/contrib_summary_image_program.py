"""Write float images with tf.contrib.summary.image (TF 1.15, eager) or its migrated form, and
print the pixels recorded. Usage: python contrib_summary_image_program.py SOURCE LOGDIR, where
SOURCE defines `write_images(logdir, images, step)`; CPython 3.7 and 3.11. One JSON line.
"""

import io
import json
import os
import sys

import numpy as np
import tensorflow as tf

SOURCE, LOGDIR = sys.argv[1:3]
if tf.__version__.startswith("1."):
    tf.enable_eager_execution()
# Values TF1 scaled (negative: 0 at 128) next to values in [0, 1] (largest at 255).
IMAGES = np.array([[[[-1.0], [-0.5]], [[0.0], [1.0]]],
                   [[[0.0], [0.25]], [[0.5], [1.0]]],
                   [[[0.1], [0.2]], [[0.3], [0.4]]]], np.float32)


def recorded(logdir):
    images = {}
    for name in sorted(os.listdir(logdir)):
        for event in tf.compat.v1.train.summary_iterator(os.path.join(logdir, name)):
            for value in event.summary.value:
                kind = value.WhichOneof("value")
                if kind == "image":
                    encoded = value.image.encoded_image_string
                else:  # a tensor summary: [width, height, encoded...]
                    encoded = tf.make_ndarray(value.tensor)[2]
                pixels = tf.image.decode_png(encoded).numpy()
                images["%s@%d" % (value.tag, event.step)] = pixels.ravel().tolist()
    return images


def main():
    namespace = {}
    with open(SOURCE) as stream:
        exec(compile(stream.read(), SOURCE, "exec"), namespace)
    namespace["write_images"](LOGDIR, IMAGES, 4)
    print(json.dumps({"images": recorded(LOGDIR)}))


if __name__ == "__main__":
    main()
