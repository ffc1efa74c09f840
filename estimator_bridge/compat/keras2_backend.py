"""Keras 2 backend functions (`K.sqrt`, `K.argmax`, ...) whose Keras 3 `keras.ops` namesake differs.

Keras 3 removed the `keras.backend` math functions; most have a `keras.ops` function with the same
parameters and numbers, which estimator-migrate writes directly (migrate/tables/keras.py). These
differ in one way each, so the codemod writes calls to the Keras 2 version here, built on keras.ops
(so they also take Keras 3's symbolic inputs in a functional model):
- `K.sqrt(x)` clipped negative inputs to 0 before the root (ops.sqrt gives NaN);
- `K.expand_dims(x, axis=-1)`, `K.argmax(x, axis=-1)`, `K.argmin(x, axis=-1)`, `K.concatenate(
  tensors, axis=-1)`: Keras 2's default axis is the last one (ops: required / None / 0);
- `K.int_shape(x)`: the static shape as a tuple with None for unknown dimensions;
- `K.cast(x, dtype)`: tf.cast, so TensorFlow's dtype names ('float' is float32) are accepted.
"""

from __future__ import annotations


def sqrt(x):
    from keras import ops

    return ops.sqrt(ops.maximum(x, ops.zeros_like(x)))


def expand_dims(x, axis=-1):
    from keras import ops

    return ops.expand_dims(x, axis)


def argmax(x, axis=-1):
    from keras import ops

    return ops.argmax(x, axis=axis)


def argmin(x, axis=-1):
    from keras import ops

    return ops.argmin(x, axis=axis)


def concatenate(tensors, axis=-1):
    from keras import ops

    return ops.concatenate(tensors, axis=axis)


def int_shape(x):
    try:
        return tuple(x.shape)
    except (TypeError, ValueError):
        return None


def cast(x, dtype):
    import tensorflow as tf
    from keras import ops

    return ops.cast(x, tf.as_dtype(dtype).name)
