"""`tf.estimator.inputs.numpy_input_fn` / `pandas_input_fn` on one thread: TF 1.15's batches, and its shuffling.

TF 1.15's numpy_input_fn fed the rows through a TF1 queue: with `shuffle=False` and one enqueue
thread they came out in order, epoch after epoch (a batch may span two epochs), `num_epochs`
times; the last batch was smaller when the rows ran out (`dequeue_up_to`), and with
`num_epochs=None` every batch was full and the input never ended (`dequeue_many`). The same batches
are `from_tensor_slices(rows).repeat(num_epochs).batch(batch_size)`, which the bridge's Estimators
read, ending where TF 1.15's queue raised OutOfRange. The structure is TF 1.15's: features (an
array's tensor, or a dict of them) and, when `y` is given, labels in the same form.

TF 1.15's pandas_input_fn fed the frame's columns (its index dropped, the labels appended as columns)
through the same queue: its batches are numpy_input_fn's on the columns' arrays, features a dict
keyed by the frame's columns, labels a tensor for a Series and a dict keyed by its columns for a
DataFrame of labels (docs/results/2026-11-28-pandas-input-fn.md).

With `shuffle=True` numpy_input_fn's feeder started each epoch at a row drawn by Python's `random`
(reseeded from the OS first) and went round the rows from there, into a RandomShuffleQueue of
`queue_capacity` rows that the input read at random, epochs mixed in it (TF 1.15's feeding_functions
and numpy_io). No tf.data pipeline repeats the queue's draws, but the same rotation, repeated and passed
through `shuffle(queue_capacity)`, draws from the same rows: a dataset that fits the queue comes out as
one uniform permutation of all its epochs' rows, not epoch by epoch (tests/estimator_bridge/
test_numpy_input_fn.py measures both against TF 1.15). pandas_input_fn's shuffling is refused (the TF
1.15 oracle has no pandas to measure it against), and so are several threads (the order was their race).
"""

from __future__ import annotations

import collections
import random

import numpy as np
import tensorflow as tf

# TF 1.15's key for an array x (numpy_io._validate_and_convert_features) and for an array y.
_ARRAY_KEY = "__direct_np_input__"
_TARGET_KEY = "__target_key__"


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1):
    """An input_fn returning a tf.data.Dataset of TF 1.15's numpy_input_fn batches (shuffled as its queue was)."""
    _check_order("numpy_input_fn", shuffle, num_threads, "from_tensor_slices((x, y))", shuffle_served=True)

    def input_fn():
        columns = _columns(x)
        feature_keys = list(columns)
        if y is None:
            target_keys = None
        elif isinstance(y, dict):
            if not y:
                raise ValueError("y cannot be empty dict, use None instead.")
            target_keys = sorted(y)
            duplicate = set(feature_keys) & set(target_keys)
            if duplicate:
                raise ValueError(f"{len(duplicate)} duplicate keys are found in both x and y: {duplicate}")
            columns.update((key, y[key]) for key in target_keys)
        else:
            target_keys = _TARGET_KEY
            while target_keys in columns:
                target_keys += "_n"
            columns[target_keys] = y
        if len({np.shape(value)[0] for value in columns.values()}) != 1:
            raise ValueError("Length of tensors in x and y is mismatched. All elements in x and y must have the "
                             f"same length.\nShapes in x: { {k: np.shape(columns[k]) for k in feature_keys} }")
        rows = _rotated(dict(columns)) if shuffle else dict(columns)
        dataset = _batched(rows, batch_size, num_epochs, shuffle_buffer=queue_capacity if shuffle else None)
        return dataset.map(lambda row: _structure(row, x, feature_keys, target_keys))

    return input_fn


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1,
                    target_column="target"):
    """An input_fn returning a tf.data.Dataset of TF 1.15's pandas_input_fn batches (`shuffle=False`).

    x is a DataFrame, y None, a Series or a DataFrame (with x's index); the batches are numpy_input_fn's
    on the columns' arrays, taken when this is called (TF 1.15 copied the frame then).
    """
    import pandas as pd  # only programs that pass a DataFrame call this

    _check_order("pandas_input_fn", shuffle, num_threads, "from_tensor_slices((dict(x), y))")
    if not isinstance(target_column, str):
        raise TypeError("target_column must be a string type")
    del queue_capacity  # the queue's size: no effect on the batches
    features = {name: _column_values(x[name]) for name in x.columns}
    if y is None:
        labels = None
    else:
        if target_column in x:
            raise ValueError(f"Cannot use name {target_column} for target column: DataFrame already has a column "
                             f"with that name: {x.columns}")
        if not np.array_equal(x.index, y.index):
            raise ValueError(f"Index for x and y are mismatched.\nIndex for x: {x.index}\nIndex for y: {y.index}\n")
        labels = ({name: _column_values(y[name]) for name in y.columns} if isinstance(y, pd.DataFrame)
                  else _column_values(y))

    def input_fn():
        return _batched(features if labels is None else (features, labels), batch_size, num_epochs)

    return input_fn


def _check_order(function: str, shuffle, num_threads, tf_data: str, shuffle_served: bool = False) -> None:
    """TF 1.15's check of `shuffle`, then the refusal of the orders only TF 1.15's queue gave."""
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is recommended to set it "
                         f"as True for training); got {shuffle}")
    if (shuffle and not shuffle_served) or num_threads != 1:
        raise ValueError(
            f"estimator_bridge's {function} reproduces TF 1.15's batches only for shuffle=False and "
            f"num_threads=1 (got shuffle={shuffle}, num_threads={num_threads}): TF 1.15's shuffling queue "
            "and its enqueue threads gave an order no tf.data pipeline repeats. Write the input_fn with "
            f"tf.data instead: tf.data.Dataset.{tf_data}.shuffle(len(x)).repeat(num_epochs).batch(batch_size)")


def _batched(rows, batch_size, num_epochs, shuffle_buffer=None) -> tf.data.Dataset:
    """The rows in order, epoch after epoch, in TF 1.15's batches: `dequeue_up_to` for N epochs (the
    last batch smaller), `dequeue_many` for None (every batch full, never ending). `shuffle_buffer`:
    drawn at random from that many rows of the repeated stream, as from TF 1.15's shuffling queue."""
    dataset = tf.data.Dataset.from_tensor_slices(rows).repeat(num_epochs)
    if shuffle_buffer is not None:
        dataset = dataset.shuffle(shuffle_buffer)
    return dataset.batch(batch_size, drop_remainder=num_epochs is None)


def _rotated(columns: dict) -> dict:
    """The columns started at a random row and wrapped round, as TF 1.15's shuffling feeder read them
    (`random.seed(None); random.randrange(len)`: it reseeded Python's `random` from the OS, so does this)."""
    random.seed(None)
    start = random.randrange(len(next(iter(columns.values()))))
    return {key: np.concatenate([value[start:], value[:start]]) for key, value in columns.items()}


def _column_values(column) -> np.ndarray:
    """A pandas column as a numpy array of its own (TF 1.15 fed `x.copy()`'s values): pandas 3's string
    columns as the object array of str TF 1.15's pandas gave (tf.string)."""
    return column.to_numpy(copy=True)


def _columns(x) -> collections.OrderedDict:
    """TF 1.15's checks of x, and its columns in TF 1.15's order (a dict's keys sorted)."""
    if isinstance(x, dict):
        if not x:
            raise ValueError("x cannot be an empty dict")
        return collections.OrderedDict(sorted(x.items(), key=lambda item: item[0]))
    if isinstance(x, np.ndarray):
        if x.size == 0:
            raise ValueError("x cannot be an empty array")
        return collections.OrderedDict({_ARRAY_KEY: x})
    raise TypeError(f"x must be a dict or array; got {type(x).__name__}")


def _structure(row, x, feature_keys, target_keys):
    """(features, labels) as TF 1.15 returned them: an array's tensor or a dict, labels likewise."""
    features = row[_ARRAY_KEY] if isinstance(x, np.ndarray) else {key: row[key] for key in feature_keys}
    if target_keys is None:
        return features
    if isinstance(target_keys, str):
        return features, row[target_keys]
    return features, {key: row[key] for key in target_keys}
