"""`dense`, `dropout`, `flatten` and `layer_norm`: TF 1.15's core layers."""

from __future__ import annotations

import tensorflow as tf
from tensorflow.python.framework import smart_cond as _smart_cond  # the helper TF1 layers used

from estimator_bridge.compat.contrib_arg_scope import add_arg_scope
from estimator_bridge.compat.contrib_helpers import layer_norm as _contrib_layer_norm
from estimator_bridge.layers.base import (layer_scope, as_input_tensor, check_rank, get_weight,
                                          add_activity_regularization, normalize_data_format,
                                          keras_arguments, activate, weights_dtype)

tf1 = tf.compat.v1


@keras_arguments
def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=tf1.zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
          name=None, reuse=None):
    """`tf.layers.dense`: `activation(inputs @ kernel + bias)` with variables `<scope>/kernel|bias`.

    Inputs of rank > 2 are contracted on their last axis with `tensordot`, as TF 1.15 did.
    """
    inputs = as_input_tensor(inputs, "dense")
    units = int(units)
    with layer_scope(name, "dense", reuse) as scope:
        check_rank(inputs, scope.name, min_rank=2)
        last_dim = tf.compat.dimension_value(inputs.shape[-1])
        if last_dim is None:
            raise ValueError(
                f"The last dimension of the inputs to `Dense` ({scope.name}) should be defined. "
                f"Found `None` in shape {inputs.shape}.")
        dtype = weights_dtype(inputs, "Dense")
        kernel = get_weight("kernel", [last_dim, units], dtype, kernel_initializer,
                             kernel_regularizer, trainable, kernel_constraint)
        bias = None
        if use_bias:
            bias = get_weight("bias", [units], dtype, bias_initializer, bias_regularizer,
                               trainable, bias_constraint)
        rank = inputs.shape.rank
        if rank > 2:
            outputs = tf.tensordot(inputs, kernel, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape.as_list()[:-1] + [units])
        else:
            outputs = tf.linalg.matmul(inputs, kernel)
        if bias is not None:
            outputs = tf.nn.bias_add(outputs, bias)
        outputs = activate(outputs, activation)
        add_activity_regularization(outputs, activity_regularizer)
    return outputs


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """`tf.layers.dropout`: identity unless `training` (a bool or a boolean tensor) is true.

    Note the TF1 default `training=False`. Kept units are scaled by `1 / (1 - rate)` with TF 1.15's
    formula `x * (1 / keep_prob) * mask` and a `random_uniform(seed=seed)` mask, so a seeded
    dropout draws the same mask as TF 1.15 under the same graph seed.
    """
    inputs = as_input_tensor(inputs, "dropout")
    with layer_scope(name, "dropout", owns_variables=False):
        def dropped_inputs():
            return _tf1_dropout(inputs, rate, noise_shape, seed)

        return _smart_cond.smart_cond(training, dropped_inputs, lambda: tf.identity(inputs))


def _tf1_dropout(inputs, rate, noise_shape, seed):
    """TF 1.15's `nn.dropout_v2` body (TF 2.x divides instead, which rounds differently)."""
    with tf1.name_scope("dropout"):
        if not inputs.dtype.is_floating:
            raise ValueError(
                "x has to be a floating point tensor since it's going to be scaled. Got a "
                f"{inputs.dtype} tensor instead.")
        if isinstance(rate, (int, float)):
            if not 0 <= rate < 1:
                raise ValueError(
                    f"rate must be a scalar tensor or a float in the range [0, 1), got {rate!r}")
            if rate == 0:
                return inputs
        rate = tf.convert_to_tensor(rate, dtype=inputs.dtype, name="rate")
        rate.shape.assert_has_rank(0)
        if tf.get_static_value(rate) == 0:
            return inputs
        if noise_shape is None:
            concrete_noise_shape = tf.shape(inputs)
        else:
            dynamic_shape = tf.shape(inputs)
            concrete_noise_shape = tf.convert_to_tensor(
                [dynamic_shape[i] if value is None else value
                 for i, value in enumerate(noise_shape)])
        random_tensor = tf1.random_uniform(concrete_noise_shape, seed=seed, dtype=inputs.dtype)
        keep_prob = 1 - rate
        scale = 1 / keep_prob
        keep_mask = random_tensor >= rate
        outputs = inputs * scale * tf.cast(keep_mask, inputs.dtype)
        outputs.set_shape(inputs.shape)
        return outputs


def flatten(inputs, name=None, data_format="channels_last"):
    """`tf.layers.flatten`: (batch, ...) -> (batch, prod(...)); channels_first moves C last first."""
    inputs = as_input_tensor(inputs, "flatten")
    data_format = normalize_data_format(data_format)
    with layer_scope(name, "flatten", owns_variables=False):
        rank = inputs.shape.rank
        if data_format == "channels_first" and rank > 1:
            inputs = tf.transpose(inputs, [0] + list(range(2, rank)) + [1])
        batch = tf.compat.dimension_value(inputs.shape[0])
        outputs = tf.reshape(inputs, (batch or tf.shape(inputs)[0], -1))
        dims = inputs.shape.as_list()[1:]
        flat = None if None in dims else int(_product(dims))
        outputs.set_shape([inputs.shape[0], flat])
        return outputs


def _product(values):
    result = 1
    for value in values:
        result *= value
    return result


@add_arg_scope  # as TF 1.15's: `arg_scope([layer_norm], ...)` works on the migrated code too
def layer_norm(inputs, center=True, scale=True, activation_fn=None, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               begin_norm_axis=1, begin_params_axis=-1, scope=None):
    """`tf.contrib.layers.layer_norm` of TF 1.15: same signature, arithmetic and variable names.

    Variables `<scope or LayerNorm[_N]>/beta` and `/gamma` (MODEL_VARIABLES too), moments over
    axes `begin_norm_axis..rank-1` with epsilon 1e-12, so TF1 checkpoints restore and BERT-style
    models compute what they computed on TF 1.15 (goldens/layers_recorder.py, case layer_norm).
    Every argument of the TF 1.15 signature is supported; the implementation is shared with the
    compat runner's `tf.contrib.layers.layer_norm` (estimator_bridge/compat/contrib_helpers.py).
    """
    return _contrib_layer_norm(
        inputs, center=center, scale=scale, activation_fn=activation_fn, reuse=reuse,
        variables_collections=variables_collections, outputs_collections=outputs_collections,
        trainable=trainable, begin_norm_axis=begin_norm_axis,
        begin_params_axis=begin_params_axis, scope=scope)
