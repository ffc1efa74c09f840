"""A TF 1.x tutorial's MNIST input, as hunkim/DeepLearningZeroToAll and Hvass-Labs/TensorFlow-Tutorials (heldout5)
read it: `from tensorflow.examples.tutorials.mnist import input_data; mnist = input_data.read_data_sets(dir,
one_hot=True)`, then `mnist.train.next_batch(n)` across an epoch boundary. The idx files are written locally
(40 random 28x28 digits), so nothing is downloaded; prints what the reader returned as JSON."""
import gzip
import json
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data


def write_idx(path, array, magic):
    header = np.array([magic, *array.shape], dtype=">i4").tobytes()
    with gzip.open(path, "wb") as stream:
        stream.write(header + array.astype(np.uint8).tobytes())


folder = tempfile.mkdtemp()
rng = np.random.RandomState(0)
for prefix, count in (("train", 40), ("t10k", 12)):
    write_idx(os.path.join(folder, f"{prefix}-images-idx3-ubyte.gz"), rng.randint(0, 256, (count, 28, 28)), 2051)
    write_idx(os.path.join(folder, f"{prefix}-labels-idx1-ubyte.gz"), rng.randint(0, 10, count), 2049)
mnist = input_data.read_data_sets(folder, one_hot=True, validation_size=10, seed=7)
batches = [mnist.train.next_batch(8) for _ in range(6)]
raw = input_data.read_data_sets(folder, one_hot=False, dtype=tf.uint8, reshape=False, validation_size=5, seed=3)
unshuffled = raw.train.next_batch(4, shuffle=False)
print(json.dumps({
    "sizes": [mnist.train.num_examples, mnist.validation.num_examples, mnist.test.num_examples],
    "epochs": mnist.train.epochs_completed,
    "batch_sums": [float(images.sum()) for images, _ in batches],
    "batch_labels": [labels.argmax(axis=1).tolist() for _, labels in batches],
    "shapes": [list(mnist.train.images.shape), list(mnist.train.labels.shape), list(raw.train.images.shape)],
    "validation": float(mnist.validation.images.sum()), "test_labels": mnist.test.labels.argmax(axis=1).tolist(),
    "raw_dtype": str(raw.train.images.dtype), "raw_labels": raw.train.labels.tolist(),
    "unshuffled": [int(unshuffled[0].sum()), unshuffled[1].tolist()],
    "tensorflow": tf.__version__}))
