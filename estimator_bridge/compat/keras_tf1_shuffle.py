"""TF 1.x Keras' batches of `fit(x, y, shuffle=True)` on numpy arrays, for migrated code on Keras 3 or tf-keras.

TF 1.x's Keras (graph mode, no strategy) drew each epoch's order with numpy's global generator,
`np.random.shuffle` over the sample indices at the start of the epoch, and cut batches of
`batch_size` (32 when not given) from it. Keras 3 and tf-keras in TF 2 mode shuffle with TensorFlow's
generator, so a program that seeds numpy (`np.random.seed(0)`) trains on other batches from the first
step: GoogleCloudPlatform/cloudml-samples tpu/templates/tpu_keras/trainer.py (2018) logs a first-batch
loss of 0.69731 on TF 1.15 and 0.68843 migrated. `batches(...)` returns a Keras sequence (Keras 3's
`PyDataset`, or tf-keras' `Sequence` for a tf-keras model) that serves TF 1.x's batches, drawing each
epoch's order from numpy when the epoch's first batch is read.
"""

from __future__ import annotations

TF1_DEFAULT_BATCH_SIZE = 32


def sliced(value, index):
    """`value` (an array, or a list/tuple/dict of arrays) at the rows `index`; a list as a tuple (Keras 3
    takes a list in a batch for one tensor, a tuple for one per output)."""
    if isinstance(value, dict):
        return {key: array[index] for key, array in value.items()}
    if isinstance(value, (list, tuple)):
        return tuple(array[index] for array in value)
    return value[index]


def rows(value) -> int:
    if isinstance(value, dict):
        value = next(iter(value.values()))
    elif isinstance(value, (list, tuple)):
        value = value[0]
    return len(value)


def _sequence_base(model):
    """The sequence class of the model's Keras: tf-keras' `Sequence`, else Keras 3's `PyDataset`."""
    if type(model).__module__.split(".")[0] == "tf_keras":
        import tf_keras

        return tf_keras.utils.Sequence
    import keras

    return keras.utils.PyDataset


def batches(model, x, y, sample_weight=None, batch_size=None, shuffle=True):
    """TF 1.x's shuffled batches of the arrays `x`, `y` (and `sample_weight`), one epoch per pass
    (`shuffle=False`: the rows in order, no draw; `shuffle="batch"`: TF 1.x's batch_shuffle, the order of
    the whole batch-sized chunks of rows drawn with numpy, the rows after the last whole chunk last).

    Keras 3 announces each epoch (`on_epoch_begin`) and reads a batch or two before the first one
    only to learn their shapes (then ends that pseudo-epoch): the order is drawn when the epoch
    begins, and reads outside an epoch get the unshuffled rows. tf-keras' `Sequence` has no
    `on_epoch_begin` and reads its first batch only inside the first epoch: there the order is drawn
    at the epoch's first read.
    """
    import numpy as np

    base = _sequence_base(model)
    announced = hasattr(base, "on_epoch_begin")
    size = batch_size or TF1_DEFAULT_BATCH_SIZE
    count = rows(x)

    class TF1ShuffledBatches(base):
        def __init__(self):
            super().__init__()
            self.order = None

        def _draw(self):
            self.order = np.arange(count)
            if shuffle == "batch":
                chunks = self.order[:count // size * size].reshape((count // size, size))
                np.random.shuffle(chunks)   # in place: the chunks' order, drawn like TF 1.x's batch_shuffle
            elif shuffle:
                np.random.shuffle(self.order)

        def __len__(self):
            return (count + size - 1) // size

        def __getitem__(self, number):
            if self.order is None and not announced:
                self._draw()
            order = np.arange(count) if self.order is None else self.order
            index = order[number * size:(number + 1) * size]
            batch = (sliced(x, index), sliced(y, index))
            return batch if sample_weight is None else batch + (sliced(sample_weight, index),)

        def on_epoch_begin(self):
            self._draw()

        def on_epoch_end(self):
            self.order = None

    return TF1ShuffledBatches()


def class_sample_weights(y, class_weight, sample_weight=None):
    """TF 1.x Keras' per-row weights of `fit(..., class_weight=..., sample_weight=...)` on one output's labels.

    TF 1.x turned `class_weight` into one weight per row before batching (training_utils.
    standardize_weights): the class of a row is the argmax of a one-hot label, the label itself for one
    column; every class in `y` must have a weight; with `sample_weight` too, the two multiply (Keras 3
    refuses both at once, tf-keras fails on them). Returns `sample_weight` when `class_weight` is None.
    """
    import numpy as np

    if class_weight is None:
        return sample_weight
    y = np.asarray(y)
    if y.ndim > 2:
        raise ValueError("`class_weight` not supported for 3+ dimensional targets.")
    if y.ndim == 2:
        classes = np.argmax(y, axis=1) if y.shape[1] > 1 else np.reshape(y, y.shape[0])
    else:
        classes = y
    missing = set(classes.tolist()) - set(class_weight)
    if missing:
        raise ValueError("`class_weight` must contain all classes in the data. The classes %s exist in the "
                         "data but not in `class_weight`." % missing)
    weights = np.asarray([class_weight[cls] for cls in classes.tolist()])
    return weights if sample_weight is None else weights * np.asarray(sample_weight)
