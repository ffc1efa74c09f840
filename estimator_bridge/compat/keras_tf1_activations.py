"""TF 1.x Keras activations whose formula Keras 3 changed, for code migrated to Keras 3.

TF 1.x's `tf.keras` (and standalone Keras up to 2.3) computed `hard_sigmoid(x)` as
`clip(0.2 * x + 0.5, 0, 1)`, the default recurrent activation of its LSTM and GRU layers; Keras 3's
`hard_sigmoid` is `relu6(x + 3) / 6` (slope 1/6), so neither the name nor Keras 3's function gives a
migrated TF 1.x recurrent layer its numbers. estimator-migrate writes this function where the program
relied on the default (migrate/codemods/keras_rnn_defaults.py).
"""

from __future__ import annotations


def hard_sigmoid(x):
    """TF 1.15's `keras.backend.hard_sigmoid`: x * 0.2 + 0.5, clipped to [0, 1], in that order."""
    import tensorflow as tf

    x = tf.convert_to_tensor(x)
    point_two = tf.constant(0.2, dtype=x.dtype.base_dtype)
    point_five = tf.constant(0.5, dtype=x.dtype.base_dtype)
    return tf.clip_by_value(x * point_two + point_five, 0.0, 1.0)
