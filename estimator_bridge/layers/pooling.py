"""Pooling: `max_pooling1d/2d/3d` and `average_pooling1d/2d/3d` as TF 1.15 computed them.

The six functions differ only in the op and the rank, so one table builds them (`_POOLINGS`);
each keeps TF 1.15's signature, name and docstring. Pooling layers have no variables: their
scope is always uniquified from `name or default_name`.
"""

from __future__ import annotations

import tensorflow as tf

from estimator_bridge.layers.base import (as_input_tensor, check_rank, layer_scope,
                                          normalize_data_format, normalize_padding,
                                          normalize_tuple, tf_data_format)


def _pool1d(pool, inputs, pool_size, strides, padding, data_format):
    """Keras-1 pooled 1-D inputs as images of width 1 (expand, pool2d, squeeze)."""
    pad_axis = 2 if data_format == "channels_last" else 3
    images = tf.expand_dims(inputs, pad_axis)
    if data_format == "channels_last":
        window, step = (1,) + pool_size + (1, 1), (1,) + strides + (1, 1)
    else:
        window, step = (1, 1) + pool_size + (1,), (1, 1) + strides + (1,)
    outputs = pool(images, ksize=window, strides=step, padding=padding,
                   data_format="NHWC" if data_format == "channels_last" else "NCHW")
    return tf.squeeze(outputs, [pad_axis])


def _pool2d(pool, inputs, pool_size, strides, padding, data_format):
    if data_format == "channels_last":
        window, step = (1,) + pool_size + (1,), (1,) + strides + (1,)
    else:
        window, step = (1, 1) + pool_size, (1, 1) + strides
    return pool(inputs, ksize=window, strides=step, padding=padding,
                data_format=tf_data_format(data_format, 2))


def _pool3d(pool, inputs, pool_size, strides, padding, data_format):
    window, step = (1,) + pool_size + (1,), (1,) + strides + (1,)
    if data_format == "channels_first":
        # TF 1.15's Keras-1 pooled NCDHW inputs through NDHWC (the CPU kernels' format).
        inputs = tf.transpose(inputs, (0, 2, 3, 4, 1))
    outputs = pool(inputs, ksize=window, strides=step, padding=padding, data_format="NDHWC")
    if data_format == "channels_first":
        outputs = tf.transpose(outputs, (0, 4, 1, 2, 3))
    return outputs


_POOL_BY_RANK = {1: _pool1d, 2: _pool2d, 3: _pool3d}


def _pooling(rank, pool, default_name, inputs, pool_size, strides, padding, data_format, name):
    """Keras-1's argument checks, the layer scope, then the rank's pooling."""
    inputs = as_input_tensor(inputs, default_name)
    pool_size = normalize_tuple(pool_size, rank, "pool_size")
    strides = normalize_tuple(pool_size if strides is None else strides, rank, "strides")
    padding = normalize_padding(padding)
    data_format = normalize_data_format(data_format)
    with layer_scope(name, default_name, owns_variables=False) as scope:
        check_rank(inputs, scope.name, expected_rank=rank + 2)
        return _POOL_BY_RANK[rank](pool, inputs, pool_size, strides, padding.upper(),
                                   data_format)


def _pooling_layer(layer_name, rank, pool, doc):
    """The `tf.layers.<layer_name>` function: TF 1.15's signature around `_pooling`."""

    def layer(inputs, pool_size, strides, padding="valid", data_format="channels_last",
              name=None):
        return _pooling(rank, pool, layer_name, inputs, pool_size, strides, padding,
                        data_format, name)

    layer.__name__ = layer.__qualname__ = layer_name
    layer.__doc__ = doc
    return layer


# name -> (rank, op, docstring)
_POOLINGS = {
    "max_pooling1d": (1, tf.nn.max_pool2d,
                      "`tf.layers.max_pooling1d` on (batch, width, channels) inputs."),
    "average_pooling1d": (1, tf.nn.avg_pool2d,
                          "`tf.layers.average_pooling1d` on (batch, width, channels) inputs."),
    "max_pooling2d": (2, tf.nn.max_pool2d,
                      "`tf.layers.max_pooling2d` (no variables; `strides=None` means "
                      "`pool_size`)."),
    "average_pooling2d": (2, tf.nn.avg_pool2d,
                          "`tf.layers.average_pooling2d` ('same' padding averages over the valid "
                          "cells only)."),
    "max_pooling3d": (3, tf.nn.max_pool3d,
                      "`tf.layers.max_pooling3d` on (batch, depth, height, width, channels) "
                      "inputs."),
    "average_pooling3d": (3, tf.nn.avg_pool3d,
                          "`tf.layers.average_pooling3d` on (batch, depth, height, width, "
                          "channels) inputs."),
}

max_pooling1d = _pooling_layer("max_pooling1d", *_POOLINGS["max_pooling1d"])
average_pooling1d = _pooling_layer("average_pooling1d", *_POOLINGS["average_pooling1d"])
max_pooling2d = _pooling_layer("max_pooling2d", *_POOLINGS["max_pooling2d"])
average_pooling2d = _pooling_layer("average_pooling2d", *_POOLINGS["average_pooling2d"])
max_pooling3d = _pooling_layer("max_pooling3d", *_POOLINGS["max_pooling3d"])
average_pooling3d = _pooling_layer("average_pooling3d", *_POOLINGS["average_pooling3d"])
