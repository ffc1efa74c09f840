"""`tf.keras.Input(tensor=t)` as TF 1.x read it inside a model_fn: the graph tensor itself.

TF 1.x model_fns built their network with Keras layers on an Input wrapping the features tensor
(`v = layers.Input(tensor=features)`, then `layers.Conv2D(...)(v)`):
TF 1.15's `Input(tensor=t)` returned `t` (with Keras history attached) and every layer after it
was called on graph tensors. Keras 3's `Input` accepts only its own symbolic tensors and raises
`ValueError: Argument input_tensor must be a KerasTensor` on a tf.Tensor; Keras 3 layers called
on the graph tensor itself compute the same thing, so that is what this returns. Everything
else goes to Keras 3's `Input`, by keyword: TF 1.15's positional order (shape, batch_size, name,
dtype, sparse, tensor) differs from Keras 3's (shape, batch_size, dtype, sparse, ...).
Building a `keras.Model` on the returned tensor still fails in Keras 3, with Keras' own message.
The compat runner serves it too, for a model_fn the bridge traces (tf-keras' own Input turns the
tensor into a functional KerasTensor there); in TF 1.x graph mode Keras 2's Input is TF 1.x's.
"""

from __future__ import annotations

import tensorflow as tf


def _is_keras_tensor(value) -> bool:
    keras = tf.keras
    return isinstance(value, getattr(keras, "KerasTensor", ())) or hasattr(value, "_keras_history")


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=False, tensor=None,  # noqa: N802
          ragged=False, **kwargs):
    """TF 1.15's `tf.keras.Input` signature; a non-Keras `tensor` is returned as it is."""
    if ragged:
        raise NotImplementedError(
            "tf.keras.Input(ragged=True): Keras 3 has no ragged inputs; pass a dense or "
            "tf.SparseTensor input instead (sparse=True).")
    if (tensor is not None and not _is_keras_tensor(tensor)
            and tf.__internal__.tf2.enabled()):  # TF 1.x behaviour (the runner's graph mode): Keras 2's own Input
        if dtype is not None and tf.as_dtype(dtype) != tensor.dtype:
            raise ValueError(f"tf.keras.Input(tensor=..., dtype={dtype!r}): the tensor is "
                             f"{tensor.dtype.name}; TF 1.x required the same dtype.")
        return tensor
    return tf.keras.Input(shape=shape, batch_size=batch_size, name=name, dtype=dtype,
                          sparse=sparse or None, tensor=tensor, **kwargs)
