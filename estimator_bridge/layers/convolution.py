"""Convolutions: `conv1d/2d/3d`, `separable_conv2d` and `conv2d_transpose` as TF 1.15 built them."""

from __future__ import annotations

import contextlib

import tensorflow as tf

from estimator_bridge.layers.base import (layer_scope, as_input_tensor, check_rank, get_weight,
                                          add_activity_regularization, normalize_tuple,
                                          normalize_padding, normalize_data_format,
                                          tf_data_format, keras_arguments, activate,
                                          weights_dtype)

tf1 = tf.compat.v1


def _input_channels(inputs, data_format, layer_name) -> int:
    """The inputs' channel count, which the kernel's shape needs (Keras-1's error when unknown)."""
    channel_axis = 1 if data_format == "channels_first" else -1
    input_dim = tf.compat.dimension_value(inputs.shape[channel_axis])
    if input_dim is None:
        raise ValueError(
            f"The channel dimension of the inputs to {layer_name} should be defined. "
            f"Found `None` in shape {inputs.shape}.")
    return input_dim


def _bias(use_bias, filters, dtype, initializer, regularizer, trainable, constraint):
    """The `bias` weight of a convolution (`[filters]`), or None without `use_bias`."""
    if not use_bias:
        return None
    return get_weight("bias", [filters], dtype, initializer, regularizer, trainable, constraint)


def _conv(rank, default_name, inputs, filters, kernel_size, strides, padding, data_format,
          dilation_rate, activation, use_bias, kernel_initializer, bias_initializer,
          kernel_regularizer, bias_regularizer, activity_regularizer, kernel_constraint,
          bias_constraint, trainable, name, reuse):
    """Keras-1 `Conv` (rank 1, 2 or 3): kernel `size + (in_channels, filters)`, then `BiasAdd`."""
    inputs = as_input_tensor(inputs, default_name)
    kernel_size = normalize_tuple(kernel_size, rank, "kernel_size")
    strides = normalize_tuple(strides, rank, "strides")
    dilation_rate = normalize_tuple(dilation_rate, rank, "dilation_rate")
    allowed_padding = ("valid", "same", "causal") if rank == 1 else ("valid", "same")
    padding = normalize_padding(padding, allowed_padding)
    data_format = normalize_data_format(data_format)
    with layer_scope(name, default_name, reuse) as scope:
        check_rank(inputs, scope.name, expected_rank=rank + 2)
        input_dim = _input_channels(inputs, data_format, scope.name)
        dtype = weights_dtype(inputs, default_name)
        kernel = get_weight("kernel", list(kernel_size) + [input_dim, filters], dtype,
                             kernel_initializer, kernel_regularizer, trainable, kernel_constraint)
        bias = _bias(use_bias, filters, dtype, bias_initializer, bias_regularizer, trainable,
                     bias_constraint)
        if padding == "causal":
            left_pad = dilation_rate[0] * (kernel_size[0] - 1)
            causal = [[0, 0], [left_pad, 0], [0, 0]] if data_format == "channels_last" else \
                [[0, 0], [0, 0], [left_pad, 0]]
            inputs = tf.pad(inputs, causal)
            padding = "valid"
        outputs = tf.nn.convolution(
            inputs, kernel, strides=list(strides), padding=padding.upper(),
            data_format=tf_data_format(data_format, rank), dilations=list(dilation_rate))
        if bias is not None:
            if data_format == "channels_first" and rank == 1:
                outputs += tf.reshape(bias, (1, filters, 1))
            elif data_format == "channels_first":
                outputs = tf.nn.bias_add(outputs, bias, data_format="NCHW")
            else:
                outputs = tf.nn.bias_add(outputs, bias, data_format="NHWC")
        outputs = activate(outputs, activation)
        add_activity_regularization(outputs, activity_regularizer)
    return outputs


@keras_arguments
def conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
           dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
           bias_initializer=tf1.zeros_initializer(), kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """`tf.layers.conv1d`: variables `conv1d/kernel` (width, in, filters) and `conv1d/bias`."""
    return _conv(1, "conv1d", **locals())  # every argument, by name


@keras_arguments
def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=tf1.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    """`tf.layers.conv2d`: variables `conv2d/kernel` (h, w, in, filters) and `conv2d/bias`."""
    return _conv(2, "conv2d", **locals())  # every argument, by name


@keras_arguments
def conv3d(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=tf1.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    """`tf.layers.conv3d`: variables `conv3d/kernel` (d, h, w, in, filters) and `conv3d/bias`."""
    return _conv(3, "conv3d", **locals())  # every argument, by name


@keras_arguments
def separable_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=tf1.zeros_initializer(),
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """`tf.layers.separable_conv2d`: depthwise then 1x1 pointwise convolution.

    Variables `separable_conv2d/depthwise_kernel` (h, w, in, depth_multiplier),
    `pointwise_kernel` (1, 1, in * depth_multiplier, filters) and `bias`.
    """
    inputs = as_input_tensor(inputs, "separable_conv2d")
    kernel_size = normalize_tuple(kernel_size, 2, "kernel_size")
    strides = normalize_tuple(strides, 2, "strides")
    dilation_rate = normalize_tuple(dilation_rate, 2, "dilation_rate")
    padding = normalize_padding(padding)
    data_format = normalize_data_format(data_format)
    with layer_scope(name, "separable_conv2d", reuse) as scope:
        check_rank(inputs, scope.name, expected_rank=4)
        input_dim = _input_channels(inputs, data_format, scope.name)
        dtype = weights_dtype(inputs, "separable_conv2d")
        depthwise_kernel = get_weight(
            "depthwise_kernel", list(kernel_size) + [input_dim, depth_multiplier], dtype,
            depthwise_initializer, depthwise_regularizer, trainable, depthwise_constraint)
        pointwise_kernel = get_weight(
            "pointwise_kernel", [1, 1, depth_multiplier * input_dim, filters], dtype,
            pointwise_initializer, pointwise_regularizer, trainable, pointwise_constraint)
        bias = _bias(use_bias, filters, dtype, bias_initializer, bias_regularizer, trainable,
                     bias_constraint)
        tf_format = tf_data_format(data_format, 2)
        step = (1,) + strides + (1,) if data_format == "channels_last" else (1, 1) + strides
        outputs = tf1.nn.separable_conv2d(inputs, depthwise_kernel, pointwise_kernel,
                                          strides=step, padding=padding.upper(),
                                          rate=dilation_rate, data_format=tf_format)
        if bias is not None:
            outputs = tf.nn.bias_add(outputs, bias, data_format=tf_format)
        outputs = activate(outputs, activation)
        add_activity_regularization(outputs, activity_regularizer)
    return outputs


def _deconv_output_length(input_length, filter_size, padding, stride):
    """Keras-1 `conv_utils.deconv_output_length` without output_padding or dilation."""
    if padding == "valid":
        return input_length * stride + max(filter_size - stride, 0)
    return input_length * stride  # 'same'


# Keras-1's rank errors, worded differently by Conv2DTranspose and Conv3DTranspose in TF 1.15.
_TRANSPOSE_RANK_ERRORS = {
    2: "Inputs should have rank 4. Received input shape: {shape} ({scope})",
    3: "Inputs should have rank 5, received input shape: {shape} ({scope})",
}


@contextlib.contextmanager
def _transpose_weights(rank, default_name, inputs, filters, kernel_size, strides, padding,
                       data_format, use_bias, kernel_initializer, bias_initializer,
                       kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint,
                       trainable, name, reuse, **_):
    """What conv2d_transpose and conv3d_transpose share before their arithmetic: the normalised
    arguments, the layer's scope (held open while the caller computes), the rank check, the
    kernel `size + (filters, in_channels)` and the bias."""
    inputs = as_input_tensor(inputs, default_name)
    kernel_size = normalize_tuple(kernel_size, rank, "kernel_size")
    strides = normalize_tuple(strides, rank, "strides")
    padding = normalize_padding(padding)
    data_format = normalize_data_format(data_format)
    with layer_scope(name, default_name, reuse) as scope:
        if inputs.shape.rank != rank + 2:
            raise ValueError(_TRANSPOSE_RANK_ERRORS[rank].format(shape=inputs.shape,
                                                                 scope=scope.name))
        input_dim = _input_channels(inputs, data_format, scope.name)
        dtype = weights_dtype(inputs, default_name)
        kernel = get_weight("kernel", list(kernel_size) + [filters, input_dim], dtype,
                             kernel_initializer, kernel_regularizer, trainable, kernel_constraint)
        bias = _bias(use_bias, filters, dtype, bias_initializer, bias_regularizer, trainable,
                     bias_constraint)
        yield inputs, kernel_size, strides, padding, data_format, kernel, bias


@keras_arguments
def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=tf1.zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """`tf.layers.conv2d_transpose`: kernel `(h, w, filters, in_channels)` as in TF1."""
    with _transpose_weights(2, "conv2d_transpose", **locals()) as (
            inputs, kernel_size, strides, padding, data_format, kernel, bias):
        channels_first = data_format == "channels_first"
        dynamic_shape = tf.shape(inputs)
        h_axis, w_axis = (2, 3) if channels_first else (1, 2)
        out_height = _deconv_output_length(dynamic_shape[h_axis], kernel_size[0], padding,
                                           strides[0])
        out_width = _deconv_output_length(dynamic_shape[w_axis], kernel_size[1], padding,
                                          strides[1])
        # TF 1.15's Keras backend ran channels_first through NHWC on CPU (no NCHW kernel there).
        x = tf.transpose(inputs, (0, 2, 3, 1)) if channels_first else inputs
        output_shape = tf.stack([dynamic_shape[0], out_height, out_width, filters])
        outputs = tf.nn.conv2d_transpose(x, kernel, output_shape, strides=(1,) + strides + (1,),
                                         padding=padding.upper(), data_format="NHWC")
        if channels_first:
            outputs = tf.transpose(outputs, (0, 3, 1, 2))

        def static_length(dim, size, stride):
            return None if dim is None else _deconv_output_length(dim, size, padding, stride)

        static = inputs.shape.as_list()
        height = static_length(static[h_axis], kernel_size[0], strides[0])
        width = static_length(static[w_axis], kernel_size[1], strides[1])
        outputs.set_shape([static[0], filters, height, width] if channels_first
                          else [static[0], height, width, filters])
        if bias is not None:
            outputs = tf.nn.bias_add(outputs, bias,
                                     data_format="NCHW" if channels_first else "NHWC")
        outputs = activate(outputs, activation)
        add_activity_regularization(outputs, activity_regularizer)
    return outputs


@keras_arguments
def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=tf1.zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """`tf.layers.conv3d_transpose`: kernel `(d, h, w, filters, in_channels)` as in TF1.

    TF 1.15's Keras-1 `Conv3DTranspose.call`: `nn.conv3d_transpose` to the stacked dynamic
    output shape in the layer's own data format, the static shape set from the input's, then
    `bias_add` (TF 1.15 passed the 4-D format name, NCHW/NHWC, for these 5-D outputs).
    """
    with _transpose_weights(3, "conv3d_transpose", **locals()) as (
            inputs, kernel_size, strides, padding, data_format, kernel, bias):
        channels_first = data_format == "channels_first"
        dynamic_shape = tf.shape(inputs)
        axes = (2, 3, 4) if channels_first else (1, 2, 3)
        lengths = [_deconv_output_length(dynamic_shape[axis], size, padding, stride)
                   for axis, size, stride in zip(axes, kernel_size, strides)]
        if channels_first:
            output_shape = [dynamic_shape[0], filters] + lengths
            step = (1, 1) + strides
        else:
            output_shape = [dynamic_shape[0]] + lengths + [filters]
            step = (1,) + strides + (1,)
        outputs = tf1.nn.conv3d_transpose(inputs, kernel, tf.stack(output_shape), step,
                                          padding=padding.upper(),
                                          data_format=tf_data_format(data_format, 3))
        static = inputs.shape.as_list()
        spatial = [None if static[axis] is None
                   else _deconv_output_length(static[axis], size, padding, stride)
                   for axis, size, stride in zip(axes, kernel_size, strides)]
        outputs.set_shape([static[0], filters] + spatial if channels_first
                          else [static[0]] + spatial + [filters])
        if bias is not None:
            outputs = tf.nn.bias_add(outputs, bias,
                                     data_format="NCHW" if channels_first else "NHWC")
        outputs = activate(outputs, activation)
        add_activity_regularization(outputs, activity_regularizer)
    return outputs
