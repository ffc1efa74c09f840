"""TF 1.x Keras' crossentropy losses for migrated TF 1.x code: logits only from the loss's own activation.

TF 1.15's Keras computed `categorical_crossentropy` / `sparse_categorical_crossentropy` from the
softmax's logits only when the model's output was made by a `Softmax` op (`binary_crossentropy`:
a `Sigmoid` op), and took any other output as probabilities (renormalised for categorical, clipped,
logged). Keras 3 and tf-keras take the input of EVERY sigmoid or softmax as the logits of any
crossentropy, so a `Dense(10, activation='sigmoid')` compiled with `sparse_categorical_crossentropy`
(tensorflow/tpu's autoencoder_embeddings notebook, 2019) trains on another loss from the first
batch (TF 1.15 2.3288105, Keras 3 2.4267669). estimator-migrate writes these functions for the
crossentropies of `compile(loss=...)` in TF 1.x files (migrate/codemods/keras_tf1_losses.py); the
rule is applied to `y_pred` inside the traced train step (`y_pred.op.type`), per-sample losses out.
Keras' default fuzz factor (1e-7, TF 1.15's) is used.
"""

from __future__ import annotations

EPSILON = 1e-7


def _logits(y_pred, op_type):
    """The input of the op that made `y_pred` when it is an `op_type` op (a graph tensor), else None."""
    op = getattr(y_pred, "op", None)   # an eager tensor has no op (AttributeError)
    if op is None or getattr(op, "type", None) != op_type or len(op.inputs) != 1:
        return None
    return op.inputs[0]


def categorical_crossentropy(y_true, y_pred):
    """TF 1.15's `keras.losses.categorical_crossentropy` (last axis, no label smoothing)."""
    import tensorflow as tf

    y_pred = tf.convert_to_tensor(y_pred)
    y_true = tf.cast(y_true, y_pred.dtype)
    logits = _logits(y_pred, "Softmax")
    if logits is not None:
        return tf.nn.softmax_cross_entropy_with_logits(labels=y_true, logits=logits)
    output = y_pred / tf.reduce_sum(y_pred, -1, keepdims=True)
    output = tf.clip_by_value(output, EPSILON, 1.0 - EPSILON)
    return -tf.reduce_sum(y_true * tf.math.log(output), -1)


def sparse_categorical_crossentropy(y_true, y_pred):
    """TF 1.15's `keras.losses.sparse_categorical_crossentropy` (last axis): labels of another rank
    than the logits' minus one are flattened, as TF 1.15 did."""
    import tensorflow as tf

    y_pred = tf.convert_to_tensor(y_pred)
    output = _logits(y_pred, "Softmax")
    if output is None:
        output = tf.math.log(tf.clip_by_value(y_pred, EPSILON, 1 - EPSILON))
    target = tf.cast(y_true, tf.int64)
    output_rank, target_rank = output.shape.rank, target.shape.rank
    output_shape = tf.shape(output)
    reshaped = target_rank is not None and output_rank is not None and target_rank != output_rank - 1
    if reshaped:
        target = tf.reshape(target, [-1])
        output = tf.reshape(output, [-1, output_shape[-1]])
    losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if reshaped and output_rank >= 3:
        return tf.reshape(losses, output_shape[:-1])
    return losses


def binary_crossentropy(y_true, y_pred):
    """TF 1.15's `keras.losses.binary_crossentropy`: the mean over the last axis (no label smoothing)."""
    import tensorflow as tf

    y_pred = tf.convert_to_tensor(y_pred)
    y_true = tf.cast(y_true, y_pred.dtype)
    logits = _logits(y_pred, "Sigmoid")
    if logits is not None:
        return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=logits), -1)
    output = tf.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
    bce = y_true * tf.math.log(output + EPSILON)
    bce += (1 - y_true) * tf.math.log(1 - output + EPSILON)
    return tf.reduce_mean(-bce, -1)
