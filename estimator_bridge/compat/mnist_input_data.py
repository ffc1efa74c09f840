"""`tensorflow.examples.tutorials.mnist.input_data`: the MNIST reader of the TF 1.x tutorials.

TF 1.x tutorials and course code (heldout5: hunkim/DeepLearningZeroToAll, Hvass-Labs/TensorFlow-Tutorials;
google-research/rigl's mnist example) start with `mnist = input_data.read_data_sets("MNIST_data/",
one_hot=True)` and train on `mnist.train.next_batch(n)`; TensorFlow 2 ships neither that module nor
contrib.learn's datasets/mnist.py behind it. What those programs see is kept:
* the four idx files (gzip) are downloaded into `train_dir` once, from `source_url`;
* images are [N, 28, 28, 1] uint8, flattened to [N, 784] (`reshape`) and scaled to [0, 1] float32
  (`dtype`); labels are uint8 class ids or float64 one-hot rows; the first `validation_size` training
  examples are the validation set;
* `next_batch` walks the examples in an order drawn from numpy's global RNG, which each DataSet
  seeds from TensorFlow's seeds (`random_seed.get_seed(seed)`: the graph seed, or the op seed when
  `seed` is given): shuffled before the first batch and at each epoch's end, a batch crossing the
  end made of the epoch's rest and the next epoch's start.
Oracle test tests/migrate/test_mnist_input_data.py (idx files written locally: no download).
"""

from __future__ import annotations

import collections
import gzip
import os
import urllib.request

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import random_seed

__all__ = ["read_data_sets", "DataSet", "extract_images", "extract_labels", "dense_to_one_hot", "load_mnist",
           "maybe_download", "Datasets", "DEFAULT_SOURCE_URL"]

# CVDF's mirror of the MNIST files
DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
# idx file kind -> (magic number, number of dimensions in its header)
_IDX = {"image": (2051, 3), "label": (2049, 1)}
_FAKE_IMAGE_SIZE = 784

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def maybe_download(filename, work_directory, source_url):
    """`work_directory/filename`, downloaded from `source_url` first when it is not there."""
    tf.io.gfile.makedirs(work_directory)
    path = os.path.join(work_directory, filename)
    if not tf.io.gfile.exists(path):
        downloaded, _ = urllib.request.urlretrieve(source_url)
        tf.io.gfile.copy(downloaded, path)
        print("Successfully downloaded", filename, tf.io.gfile.stat(path).length, "bytes.")
    return path


def _read_idx(f, kind):
    """The uint8 array of a gzipped idx file of `kind` ('image' or 'label')."""
    magic, rank = _IDX[kind]
    print("Extracting", f.name)
    with gzip.GzipFile(fileobj=f) as stream:
        found = int(np.frombuffer(stream.read(4), ">u4")[0])
        if found != magic:
            raise ValueError(f"Invalid magic number {found} in MNIST {kind} file: {f.name}")
        shape = [int(size) for size in np.frombuffer(stream.read(4 * rank), ">u4")]
        return np.frombuffer(stream.read(int(np.prod(shape))), np.uint8).reshape(shape)


def extract_images(f):
    """The images of an idx file object as uint8 [index, y, x, 1]."""
    return _read_idx(f, "image")[..., np.newaxis]


def dense_to_one_hot(labels_dense, num_classes):
    """Class ids -> float64 one-hot rows."""
    one_hot = np.zeros((labels_dense.shape[0], num_classes))
    one_hot[np.arange(labels_dense.shape[0]), labels_dense.ravel()] = 1
    return one_hot


def extract_labels(f, one_hot=False, num_classes=10):
    """The labels of an idx file object: uint8 class ids, or one-hot rows."""
    labels = _read_idx(f, "label")
    return dense_to_one_hot(labels, num_classes) if one_hot else labels


class DataSet:
    """Examples served in shuffled batches (see the module docstring for the order)."""

    def __init__(self, images, labels, fake_data=False, one_hot=False, dtype=tf.float32, reshape=True, seed=None):
        graph_seed, op_seed = random_seed.get_seed(seed)
        np.random.seed(graph_seed if seed is None else op_seed)
        dtype = tf.as_dtype(dtype).base_dtype
        if dtype not in (tf.uint8, tf.float32):
            raise TypeError(f"Invalid image dtype {dtype!r}, expected uint8 or float32")
        if fake_data:
            self._num_examples = 10000
            self.one_hot = one_hot
        else:
            assert images.shape[0] == labels.shape[0], f"images.shape: {images.shape} labels.shape: {labels.shape}"
            self._num_examples = images.shape[0]
            if reshape:
                assert images.shape[3] == 1
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if dtype == tf.float32:
                images = images.astype(np.float32) * (1.0 / 255.0)
        self._images = images
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0

    images = property(lambda self: self._images)
    labels = property(lambda self: self._labels)
    num_examples = property(lambda self: self._num_examples)
    epochs_completed = property(lambda self: self._epochs_completed)

    def _shuffle(self):
        order = np.random.permutation(self._num_examples)
        self._images, self._labels = self._images[order], self._labels[order]

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        """The next `batch_size` (images, labels)."""
        if fake_data:
            label = [1] + [0] * 9 if self.one_hot else 0
            return [[1] * _FAKE_IMAGE_SIZE for _ in range(batch_size)], [label for _ in range(batch_size)]
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size <= self._num_examples:
            self._index_in_epoch = start + batch_size
            return self._images[start:self._index_in_epoch], self._labels[start:self._index_in_epoch]
        self._epochs_completed += 1
        rest_images, rest_labels = self._images[start:], self._labels[start:]
        if shuffle:
            self._shuffle()
        self._index_in_epoch = end = batch_size - (self._num_examples - start)
        return (np.concatenate((rest_images, self._images[:end]), axis=0),
                np.concatenate((rest_labels, self._labels[:end]), axis=0))


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=tf.float32, reshape=True,
                   validation_size=5000, seed=None, source_url=DEFAULT_SOURCE_URL):
    """Datasets(train, validation, test) of the MNIST files in `train_dir` (downloaded when missing)."""
    if fake_data:
        return Datasets(*(DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
                          for _ in range(3)))
    source_url = source_url or DEFAULT_SOURCE_URL

    def read(filename, extract, **options):
        with tf.io.gfile.GFile(maybe_download(filename, train_dir, source_url + filename), "rb") as f:
            return extract(f, **options)

    train_images = read("train-images-idx3-ubyte.gz", extract_images)
    train_labels = read("train-labels-idx1-ubyte.gz", extract_labels, one_hot=one_hot)
    test_images = read("t10k-images-idx3-ubyte.gz", extract_images)
    test_labels = read("t10k-labels-idx1-ubyte.gz", extract_labels, one_hot=one_hot)
    if not 0 <= validation_size <= len(train_images):
        raise ValueError(f"Validation size should be between 0 and {len(train_images)}. "
                         f"Received: {validation_size}.")
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    return Datasets(train=DataSet(train_images[validation_size:], train_labels[validation_size:], **options),
                    validation=DataSet(train_images[:validation_size], train_labels[:validation_size], **options),
                    test=DataSet(test_images, test_labels, **options))


def load_mnist(train_dir="MNIST-data"):
    return read_data_sets(train_dir)
