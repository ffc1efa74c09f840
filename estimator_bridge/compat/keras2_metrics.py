"""A metric function of `compile(metrics=[fn])` in migrated Keras 2 code, called as Keras 2 called it.

Keras 2 (TF 1.x's tf.keras to TF 2.15's) wrapped a metric function in a MeanMetricWrapper that cast
both tensors to float32 and brought `y_true` and `y_pred` to one rank before calling it
(`squeeze_or_expand_dimensions`: a trailing dimension of 1 squeezed); Keras 3's MeanMetricWrapper
calls the function on the tensors as they come. A regression model's `Dense(1)` output, (batch, 1), against its labels, (batch,), then
broadcasts to (batch, batch) inside a user's `tf.reduce_mean(tf.square(y_pred - y_true))`:
training-data-analyst's Taxifare notebook (2019) logged another `rmse` every batch (26.67583 against
TF 1.15's 26.68007 = sqrt of the batch's MSE loss). estimator-migrate wraps such functions here
(migrate/codemods/keras2_metric_functions.py); the metric keeps the function's name (history key).
"""

from __future__ import annotations

import functools
import inspect


def metric(fn):
    """`fn` as a Keras 3 metric computed on Keras 2's inputs; a Metric class or object, or anything not a
    plain function, is returned as it is (Keras 3 handles it as Keras 2 did)."""
    if not (inspect.isfunction(fn) or isinstance(fn, functools.partial)):
        return fn
    import keras

    name = getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", None)
    return keras.metrics.MeanMetricWrapper(fn=_on_keras2_inputs(fn), name=name)


def _on_keras2_inputs(fn):
    import tensorflow as tf
    from tensorflow.python.ops.losses.util import squeeze_or_expand_dimensions

    def call(y_true, y_pred):
        y_true = tf.cast(y_true, tf.float32)
        y_pred = tf.cast(y_pred, tf.float32)
        y_pred, y_true = squeeze_or_expand_dimensions(y_pred, y_true)
        return fn(y_true, y_pred)

    return call
