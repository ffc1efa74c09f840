"""TF1 `tf.layers` functions (removed with Keras 3), rebuilt on `tf.compat.v1.get_variable`.

Keras 3 turned `tf.compat.v1.layers` into a stub (``AttributeError: `dense` is not available with
Keras 3``). Legacy `model_fn`s call `tf.layers.dense`, `conv2d`, `batch_normalization`, ... and
rely on three things besides the arithmetic: TF1 variable names (`dense/kernel`, `dense_1/bias`,
`batch_normalization/moving_mean`, which checkpoints and warm starts are keyed by), the
`UPDATE_OPS` collection holding batch-norm moving-average updates, and regularization losses in
`REGULARIZATION_LOSSES`. These functions reproduce TF 1.15's `tf.layers` on all three:

* Naming is TF 1.15's own mechanism: each call opens
  `tf.compat.v1.variable_scope(name)` (or `variable_scope(None, default_name="dense")` when no
  name is given), so uniquification (`dense`, `dense_1`), `reuse=`, enclosing scopes and re-entered
  scopes behave as in TF1. The counters live in the graph's variable-scope store, hence restart per
  `tf.Graph`; inside `tf.function` they restart per trace when the trace has fresh v1 collections
  (the bridge's variable cache provides them, see DESIGN.md section 3).
* Every variable comes from `tf.compat.v1.get_variable`, so the bridge's name-keyed variable
  cache (a `tf.variable_creator_scope`) sees each request under its TF1 name.
* The arithmetic uses the same TF ops, in the same order, as TF 1.15's Keras-1 layer code
  (`MatMul` + `BiasAdd`, `FusedBatchNormV3` for 4-D batch norm, TF1's dropout formula), so results
  match TF 1.15 (tests/estimator_bridge/test_layers_numerics.py compares against the oracle).

Arguments are read as TF 1.15's Keras-1 layers read them: activations, initializers, regularizers
and constraints also by name or config dict (`activation="relu"`, `kernel_initializer="he_normal"`,
`kernel_regularizer="l2"`, `kernel_constraint="max_norm"`; `estimator_bridge.layer_arguments`),
and the object forms have TF 1.15's constructor signatures.

Provided: `dense`, `conv1d`, `conv2d`, `conv3d`, `separable_conv2d`, `conv2d_transpose`,
`max_pooling1d/2d/3d`, `average_pooling1d/2d/3d`, `dropout`, `flatten`, `batch_normalization`,
`layer_norm` (TF 1.15's `tf.contrib.layers.layer_norm`, the target `estimator-migrate` rewrites it
to), and their object forms (`Dense`, `Conv2D`, `BatchNormalization`, ...: one object shares its variables
across calls). Not provided: batch-norm `renorm`, `virtual_batch_size` and `adjustment` (explicit
NotImplementedError), `separable_conv1d`, `conv3d_transpose`, and the `tf.layers.Layer` base class
for user-defined layers.
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect

import functools

import tensorflow as tf
from estimator_bridge import layer_arguments as _arguments
from estimator_bridge.compat.contrib_helpers import layer_norm as _contrib_layer_norm
from tensorflow.python.framework import smart_cond as _smart_cond  # the helper TF1 layers used

tf1 = tf.compat.v1

__all__ = [
    "AveragePooling1D",
    "AveragePooling2D",
    "BatchNormalization",
    "Conv1D",
    "Conv2D",
    "Conv2DTranspose",
    "Dense",
    "Dropout",
    "Flatten",
    "MaxPooling1D",
    "MaxPooling2D",
    "AveragePooling3D",
    "Conv3D",
    "MaxPooling3D",
    "SeparableConv2D",
    "average_pooling1d",
    "average_pooling2d",
    "average_pooling3d",
    "conv3d",
    "max_pooling3d",
    "separable_conv2d",
    "batch_normalization",
    "conv1d",
    "conv2d",
    "conv2d_transpose",
    "dense",
    "dropout",
    "flatten",
    "layer_norm",
    "max_pooling1d",
    "max_pooling2d",
]

# TF 1.15's fused batch norm raised any smaller epsilon to this (nn_impl.fused_batch_norm);
# TF 2.x's tf.compat.v1.nn.fused_batch_norm no longer does, so the layer clamps it itself.
_FUSED_BATCH_NORM_MIN_EPSILON = 1.001e-5


# ----------------------------------------------------------------------------- scopes and names


class _LayerObjectState:
    """What one `tf.layers` object (e.g. `Dense(3)`) keeps across calls: its scope, its weights."""

    def __init__(self, base_name):
        self.base_name = base_name
        self.scope = None  # captured at the first call, re-entered with reuse=True afterwards
        self.variables = []
        self.updates = []


# Set while a layer object's __call__ runs the functional code for it.
_calling_object = contextvars.ContextVar("estimator_bridge_layer_object", default=None)


@contextlib.contextmanager
def _layer_scope(name, default_name, reuse=None, owns_variables=True):
    """Enter the variable scope and name scope TF 1.15's `tf.layers.Layer` used for one call.

    TF1 layers with variables pass `_scope=name`: a given name opens `variable_scope(name)`
    unchanged (a second call with the same name and no reuse then fails on `get_variable`, as in
    TF1); no name with `reuse=True` opens `variable_scope(default_name)`; otherwise the scope is
    uniquified from `default_name` (`dense`, `dense_1`, ...). Layers without variables (pooling,
    dropout, flatten) never pass `_scope` and are always uniquified from `name or default_name`.
    A layer object (`tf.layers.Dense(...)`) is uniquified from its name at its first call and
    re-enters that scope with `reuse=True` at every later call (TF1's `_always_reuse_variable_scope`).
    """
    owner = _calling_object.get()
    if owner is not None and owner.scope is not None:
        captured_scope, reuse = owner.scope, True
    else:
        if owner is not None:
            opener = tf1.variable_scope(None, default_name=owner.base_name)
        elif owns_variables and name:
            opener = tf1.variable_scope(name)
        elif owns_variables and reuse:
            opener = tf1.variable_scope(default_name)
        else:
            opener = tf1.variable_scope(None, default_name=name or default_name)
        with opener as captured_scope:
            pass
        if owner is not None:
            owner.scope = captured_scope
    with tf1.variable_scope(captured_scope, reuse=reuse, auxiliary_name_scope=False) as scope:
        with tf1.name_scope(scope.original_name_scope):
            yield scope


def _as_input_tensor(inputs, layer_name):
    """Convert the layer input like Keras-1 `Layer.__call__` did; its dtype becomes the weights'."""
    inputs = tf.convert_to_tensor(inputs)
    if inputs.shape.rank is None:
        raise ValueError(
            f"`{layer_name}` needs an input of known rank; got {inputs!r}. Give the input a static "
            "rank (e.g. with `tf.ensure_shape` or `set_shape`).")
    return inputs


def _check_rank(inputs, layer_name, expected_rank=None, min_rank=None):
    """The InputSpec check of TF 1.15, with its wording (`expected ndim=4, found ndim=3`)."""
    rank = inputs.shape.rank
    if expected_rank is not None and rank != expected_rank:
        raise ValueError(
            f"Input 0 of layer {layer_name} is incompatible with the layer: expected "
            f"ndim={expected_rank}, found ndim={rank}. Full shape received: {inputs.shape}")
    if min_rank is not None and rank < min_rank:
        raise ValueError(
            f"Input 0 of layer {layer_name} is incompatible with the layer: expected "
            f"min_ndim={min_rank}, found ndim={rank}. Full shape received: {inputs.shape}")


def _get_weight(name, shape, dtype, initializer, regularizer=None, trainable=True, constraint=None,
                synchronization=tf.VariableSynchronization.AUTO,
                aggregation=tf.VariableAggregation.NONE):
    """`get_variable` in the current layer scope, as TF1's `Layer.add_weight` called it.

    `initializer=None` falls back to the scope's initializer, then to glorot_uniform for floats
    (get_variable's own rule, the one TF1 layers inherited). The regularizer goes through
    get_variable too: the store adds its loss to REGULARIZATION_LOSSES only when it creates the
    variable, so reused layers do not count it twice (TF1's `_should_add_regularizer`).
    """
    variable = tf1.get_variable(
        name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
        trainable=trainable, constraint=constraint, synchronization=synchronization,
        aggregation=aggregation)
    owner = _calling_object.get()
    if owner is not None and not any(known is variable for known in owner.variables):
        owner.variables.append(variable)
    return variable


def _add_activity_regularization(outputs, activity_regularizer):
    """Keras-1's activity regularization: regularizer(outputs) / batch size, as a layer loss."""
    if activity_regularizer is None:
        return
    with tf1.name_scope("ActivityRegularizer"):
        activity_loss = activity_regularizer(outputs)
        batch_size = tf.cast(tf.shape(outputs)[0], activity_loss.dtype)
        tf1.add_to_collection(tf1.GraphKeys.REGULARIZATION_LOSSES, activity_loss / batch_size)


def _add_updates(updates):
    """Put update ops into UPDATE_OPS once each (TF1's `_add_elements_to_collection`)."""
    owner = _calling_object.get()
    if owner is not None:
        owner.updates.extend(updates)
    collection = tf1.get_collection_ref(tf1.GraphKeys.UPDATE_OPS)
    present = {id(op) for op in collection}
    for update in updates:
        if id(update) not in present:
            collection.append(update)


def _normalize_tuple(value, rank, argument):
    """Keras-1 `conv_utils.normalize_tuple`: an int or a sequence of `rank` ints."""
    if isinstance(value, int):
        return (value,) * rank
    try:
        values = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(
            f"The `{argument}` argument must be a tuple of {rank} integers. Received: {value!r}"
        ) from None
    if len(values) != rank:
        raise ValueError(
            f"The `{argument}` argument must be a tuple of {rank} integers. Received: {value!r}")
    return values


def _normalize_padding(padding, allowed=("valid", "same")):
    normalized = padding.lower() if isinstance(padding, str) else padding
    if normalized not in allowed:
        raise ValueError(
            f"The `padding` argument must be one of {list(allowed)}. Received: {padding!r}")
    return normalized


def _normalize_data_format(data_format):
    normalized = (data_format or "channels_last").lower()
    if normalized not in ("channels_first", "channels_last"):
        raise ValueError(
            "The `data_format` argument must be one of 'channels_first', 'channels_last'. "
            f"Received: {data_format!r}")
    return normalized


def _tf_data_format(data_format, rank):
    """'channels_last' -> NWC/NHWC, 'channels_first' -> NCW/NCHW (conv_utils.convert_data_format)."""
    spatial = {1: "W", 2: "HW", 3: "DHW"}[rank]
    return f"N{spatial}C" if data_format == "channels_last" else f"NC{spatial}"


def _keras_arguments(function):
    """Read activation/initializer/regularizer/constraint arguments as TF 1.15's Keras-1 layers
    did: names (`activation="relu"`, `kernel_initializer="he_normal"`) and config dicts too."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        return function(**_arguments.resolve(bound.arguments))

    return wrapper


def _activate(outputs, activation):
    return activation(outputs) if activation is not None else outputs


def _weights_dtype(inputs, layer_name):
    dtype = inputs.dtype.base_dtype
    if not (dtype.is_floating or dtype.is_complex):
        raise TypeError(
            f"Unable to build `{layer_name}` layer with non-floating point dtype {dtype.name}; "
            "cast the input to a float type first.")
    return dtype


# ----------------------------------------------------------------------------- dense


@_keras_arguments
def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=tf1.zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
          name=None, reuse=None):
    """`tf.layers.dense`: `activation(inputs @ kernel + bias)` with variables `<scope>/kernel|bias`.

    Inputs of rank > 2 are contracted on their last axis with `tensordot`, as TF 1.15 did.
    """
    inputs = _as_input_tensor(inputs, "dense")
    units = int(units)
    with _layer_scope(name, "dense", reuse) as scope:
        _check_rank(inputs, scope.name, min_rank=2)
        last_dim = tf.compat.dimension_value(inputs.shape[-1])
        if last_dim is None:
            raise ValueError(
                f"The last dimension of the inputs to `Dense` ({scope.name}) should be defined. "
                f"Found `None` in shape {inputs.shape}.")
        dtype = _weights_dtype(inputs, "Dense")
        kernel = _get_weight("kernel", [last_dim, units], dtype, kernel_initializer,
                             kernel_regularizer, trainable, kernel_constraint)
        bias = None
        if use_bias:
            bias = _get_weight("bias", [units], dtype, bias_initializer, bias_regularizer,
                               trainable, bias_constraint)
        rank = inputs.shape.rank
        if rank > 2:
            outputs = tf.tensordot(inputs, kernel, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape.as_list()[:-1] + [units])
        else:
            outputs = tf.linalg.matmul(inputs, kernel)
        if bias is not None:
            outputs = tf.nn.bias_add(outputs, bias)
        outputs = _activate(outputs, activation)
        _add_activity_regularization(outputs, activity_regularizer)
    return outputs


# ----------------------------------------------------------------------------- convolutions


def _conv(rank, default_name, inputs, filters, kernel_size, strides, padding, data_format,
          dilation_rate, activation, use_bias, kernel_initializer, bias_initializer,
          kernel_regularizer, bias_regularizer, activity_regularizer, kernel_constraint,
          bias_constraint, trainable, name, reuse):
    """Keras-1 `Conv` (rank 1, 2 or 3): kernel `size + (in_channels, filters)`, then `BiasAdd`."""
    inputs = _as_input_tensor(inputs, default_name)
    kernel_size = _normalize_tuple(kernel_size, rank, "kernel_size")
    strides = _normalize_tuple(strides, rank, "strides")
    dilation_rate = _normalize_tuple(dilation_rate, rank, "dilation_rate")
    allowed_padding = ("valid", "same", "causal") if rank == 1 else ("valid", "same")
    padding = _normalize_padding(padding, allowed_padding)
    data_format = _normalize_data_format(data_format)
    with _layer_scope(name, default_name, reuse) as scope:
        _check_rank(inputs, scope.name, expected_rank=rank + 2)
        channel_axis = 1 if data_format == "channels_first" else -1
        input_dim = tf.compat.dimension_value(inputs.shape[channel_axis])
        if input_dim is None:
            raise ValueError(
                f"The channel dimension of the inputs to {scope.name} should be defined. "
                f"Found `None` in shape {inputs.shape}.")
        dtype = _weights_dtype(inputs, default_name)
        kernel = _get_weight("kernel", list(kernel_size) + [input_dim, filters], dtype,
                             kernel_initializer, kernel_regularizer, trainable, kernel_constraint)
        bias = None
        if use_bias:
            bias = _get_weight("bias", [filters], dtype, bias_initializer, bias_regularizer,
                               trainable, bias_constraint)
        if padding == "causal":
            left_pad = dilation_rate[0] * (kernel_size[0] - 1)
            causal = [[0, 0], [left_pad, 0], [0, 0]] if data_format == "channels_last" else \
                [[0, 0], [0, 0], [left_pad, 0]]
            inputs = tf.pad(inputs, causal)
            padding = "valid"
        outputs = tf.nn.convolution(
            inputs, kernel, strides=list(strides), padding=padding.upper(),
            data_format=_tf_data_format(data_format, rank), dilations=list(dilation_rate))
        if bias is not None:
            if data_format == "channels_first" and rank == 1:
                outputs += tf.reshape(bias, (1, filters, 1))
            elif data_format == "channels_first":
                outputs = tf.nn.bias_add(outputs, bias, data_format="NCHW")
            else:
                outputs = tf.nn.bias_add(outputs, bias, data_format="NHWC")
        outputs = _activate(outputs, activation)
        _add_activity_regularization(outputs, activity_regularizer)
    return outputs


@_keras_arguments
def conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
           dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
           bias_initializer=tf1.zeros_initializer(), kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """`tf.layers.conv1d`: variables `conv1d/kernel` (width, in, filters) and `conv1d/bias`."""
    return _conv(1, "conv1d", inputs, filters, kernel_size, strides, padding, data_format,
                 dilation_rate, activation, use_bias, kernel_initializer, bias_initializer,
                 kernel_regularizer, bias_regularizer, activity_regularizer, kernel_constraint,
                 bias_constraint, trainable, name, reuse)


@_keras_arguments
def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=tf1.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    """`tf.layers.conv2d`: variables `conv2d/kernel` (h, w, in, filters) and `conv2d/bias`."""
    return _conv(2, "conv2d", inputs, filters, kernel_size, strides, padding, data_format,
                 dilation_rate, activation, use_bias, kernel_initializer, bias_initializer,
                 kernel_regularizer, bias_regularizer, activity_regularizer, kernel_constraint,
                 bias_constraint, trainable, name, reuse)


@_keras_arguments
def conv3d(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=tf1.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    """`tf.layers.conv3d`: variables `conv3d/kernel` (d, h, w, in, filters) and `conv3d/bias`."""
    return _conv(3, "conv3d", inputs, filters, kernel_size, strides, padding, data_format,
                 dilation_rate, activation, use_bias, kernel_initializer, bias_initializer,
                 kernel_regularizer, bias_regularizer, activity_regularizer, kernel_constraint,
                 bias_constraint, trainable, name, reuse)


@_keras_arguments
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
    inputs = _as_input_tensor(inputs, "separable_conv2d")
    kernel_size = _normalize_tuple(kernel_size, 2, "kernel_size")
    strides = _normalize_tuple(strides, 2, "strides")
    dilation_rate = _normalize_tuple(dilation_rate, 2, "dilation_rate")
    padding = _normalize_padding(padding)
    data_format = _normalize_data_format(data_format)
    with _layer_scope(name, "separable_conv2d", reuse) as scope:
        _check_rank(inputs, scope.name, expected_rank=4)
        channel_axis = 1 if data_format == "channels_first" else -1
        input_dim = tf.compat.dimension_value(inputs.shape[channel_axis])
        if input_dim is None:
            raise ValueError(
                f"The channel dimension of the inputs to {scope.name} should be defined. "
                f"Found `None` in shape {inputs.shape}.")
        dtype = _weights_dtype(inputs, "separable_conv2d")
        depthwise_kernel = _get_weight(
            "depthwise_kernel", list(kernel_size) + [input_dim, depth_multiplier], dtype,
            depthwise_initializer, depthwise_regularizer, trainable, depthwise_constraint)
        pointwise_kernel = _get_weight(
            "pointwise_kernel", [1, 1, depth_multiplier * input_dim, filters], dtype,
            pointwise_initializer, pointwise_regularizer, trainable, pointwise_constraint)
        bias = None
        if use_bias:
            bias = _get_weight("bias", [filters], dtype, bias_initializer, bias_regularizer,
                               trainable, bias_constraint)
        tf_format = _tf_data_format(data_format, 2)
        step = (1,) + strides + (1,) if data_format == "channels_last" else (1, 1) + strides
        outputs = tf1.nn.separable_conv2d(inputs, depthwise_kernel, pointwise_kernel,
                                          strides=step, padding=padding.upper(),
                                          rate=dilation_rate, data_format=tf_format)
        if bias is not None:
            outputs = tf.nn.bias_add(outputs, bias, data_format=tf_format)
        outputs = _activate(outputs, activation)
        _add_activity_regularization(outputs, activity_regularizer)
    return outputs


def _deconv_output_length(input_length, filter_size, padding, stride):
    """Keras-1 `conv_utils.deconv_output_length` without output_padding or dilation."""
    if padding == "valid":
        return input_length * stride + max(filter_size - stride, 0)
    return input_length * stride  # 'same'


@_keras_arguments
def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=tf1.zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """`tf.layers.conv2d_transpose`: kernel `(h, w, filters, in_channels)` as in TF1."""
    inputs = _as_input_tensor(inputs, "conv2d_transpose")
    kernel_size = _normalize_tuple(kernel_size, 2, "kernel_size")
    strides = _normalize_tuple(strides, 2, "strides")
    padding = _normalize_padding(padding)
    data_format = _normalize_data_format(data_format)
    with _layer_scope(name, "conv2d_transpose", reuse) as scope:
        if inputs.shape.rank != 4:
            raise ValueError(
                f"Inputs should have rank 4. Received input shape: {inputs.shape} ({scope.name})")
        channels_first = data_format == "channels_first"
        channel_axis = 1 if channels_first else -1
        input_dim = tf.compat.dimension_value(inputs.shape[channel_axis])
        if input_dim is None:
            raise ValueError(
                f"The channel dimension of the inputs to {scope.name} should be defined. "
                f"Found `None` in shape {inputs.shape}.")
        dtype = _weights_dtype(inputs, "conv2d_transpose")
        kernel = _get_weight("kernel", list(kernel_size) + [filters, input_dim], dtype,
                             kernel_initializer, kernel_regularizer, trainable, kernel_constraint)
        bias = None
        if use_bias:
            bias = _get_weight("bias", [filters], dtype, bias_initializer, bias_regularizer,
                               trainable, bias_constraint)
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
        outputs = _activate(outputs, activation)
        _add_activity_regularization(outputs, activity_regularizer)
    return outputs


# ----------------------------------------------------------------------------- pooling


def _pool2d(pool, default_name, inputs, pool_size, strides, padding, data_format, name):
    inputs = _as_input_tensor(inputs, default_name)
    pool_size = _normalize_tuple(pool_size, 2, "pool_size")
    strides = _normalize_tuple(pool_size if strides is None else strides, 2, "strides")
    padding = _normalize_padding(padding)
    data_format = _normalize_data_format(data_format)
    with _layer_scope(name, default_name, owns_variables=False) as scope:
        _check_rank(inputs, scope.name, expected_rank=4)
        if data_format == "channels_last":
            window, step = (1,) + pool_size + (1,), (1,) + strides + (1,)
        else:
            window, step = (1, 1) + pool_size, (1, 1) + strides
        return pool(inputs, ksize=window, strides=step, padding=padding.upper(),
                    data_format=_tf_data_format(data_format, 2))


def _pool3d(pool, default_name, inputs, pool_size, strides, padding, data_format, name):
    inputs = _as_input_tensor(inputs, default_name)
    pool_size = _normalize_tuple(pool_size, 3, "pool_size")
    strides = _normalize_tuple(pool_size if strides is None else strides, 3, "strides")
    padding = _normalize_padding(padding)
    data_format = _normalize_data_format(data_format)
    with _layer_scope(name, default_name, owns_variables=False) as scope:
        _check_rank(inputs, scope.name, expected_rank=5)
        window, step = (1,) + pool_size + (1,), (1,) + strides + (1,)
        if data_format == "channels_first":
            # TF 1.15's Keras-1 pooled NCDHW inputs through NDHWC (the CPU kernels' format).
            inputs = tf.transpose(inputs, (0, 2, 3, 4, 1))
        outputs = pool(inputs, ksize=window, strides=step, padding=padding.upper(),
                       data_format="NDHWC")
        if data_format == "channels_first":
            outputs = tf.transpose(outputs, (0, 4, 1, 2, 3))
        return outputs


def _pool1d(pool, default_name, inputs, pool_size, strides, padding, data_format, name):
    """Keras-1 pooled 1-D inputs as images of width 1 (expand, pool2d, squeeze)."""
    inputs = _as_input_tensor(inputs, default_name)
    pool_size = _normalize_tuple(pool_size, 1, "pool_size")
    strides = _normalize_tuple(pool_size if strides is None else strides, 1, "strides")
    padding = _normalize_padding(padding)
    data_format = _normalize_data_format(data_format)
    with _layer_scope(name, default_name, owns_variables=False) as scope:
        _check_rank(inputs, scope.name, expected_rank=3)
        pad_axis = 2 if data_format == "channels_last" else 3
        images = tf.expand_dims(inputs, pad_axis)
        if data_format == "channels_last":
            window, step = (1,) + pool_size + (1, 1), (1,) + strides + (1, 1)
        else:
            window, step = (1, 1) + pool_size + (1,), (1, 1) + strides + (1,)
        outputs = pool(images, ksize=window, strides=step, padding=padding.upper(),
                       data_format="NHWC" if data_format == "channels_last" else "NCHW")
        return tf.squeeze(outputs, [pad_axis])


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """`tf.layers.max_pooling2d` (no variables; `strides=None` means `pool_size`)."""
    return _pool2d(tf.nn.max_pool2d, "max_pooling2d", inputs, pool_size, strides, padding,
                   data_format, name)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                      name=None):
    """`tf.layers.average_pooling2d` ('same' padding averages over the valid cells only)."""
    return _pool2d(tf.nn.avg_pool2d, "average_pooling2d", inputs, pool_size, strides, padding,
                   data_format, name)


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """`tf.layers.max_pooling1d` on (batch, width, channels) inputs."""
    return _pool1d(tf.nn.max_pool2d, "max_pooling1d", inputs, pool_size, strides, padding,
                   data_format, name)


def average_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                      name=None):
    """`tf.layers.average_pooling1d` on (batch, width, channels) inputs."""
    return _pool1d(tf.nn.avg_pool2d, "average_pooling1d", inputs, pool_size, strides, padding,
                   data_format, name)


def max_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """`tf.layers.max_pooling3d` on (batch, depth, height, width, channels) inputs."""
    return _pool3d(tf.nn.max_pool3d, "max_pooling3d", inputs, pool_size, strides, padding,
                   data_format, name)


def average_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                      name=None):
    """`tf.layers.average_pooling3d` on (batch, depth, height, width, channels) inputs."""
    return _pool3d(tf.nn.avg_pool3d, "average_pooling3d", inputs, pool_size, strides, padding,
                   data_format, name)


# ----------------------------------------------------------------------------- dropout, flatten


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """`tf.layers.dropout`: identity unless `training` (a bool or a boolean tensor) is true.

    Note the TF1 default `training=False`. Kept units are scaled by `1 / (1 - rate)` with TF 1.15's
    formula `x * (1 / keep_prob) * mask` and a `random_uniform(seed=seed)` mask, so a seeded
    dropout draws the same mask as TF 1.15 under the same graph seed.
    """
    inputs = _as_input_tensor(inputs, "dropout")
    with _layer_scope(name, "dropout", owns_variables=False):
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
    inputs = _as_input_tensor(inputs, "flatten")
    data_format = _normalize_data_format(data_format)
    with _layer_scope(name, "flatten", owns_variables=False):
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


# ----------------------------------------------------------------------------- batch norm


@_keras_arguments
def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=tf1.zeros_initializer(),
                        gamma_initializer=tf1.ones_initializer(),
                        moving_mean_initializer=tf1.zeros_initializer(),
                        moving_variance_initializer=tf1.ones_initializer(),
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                        gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                        fused=None, virtual_batch_size=None, adjustment=None):
    """`tf.layers.batch_normalization`, moving-average updates added to `UPDATE_OPS`.

    As in TF 1.15: `training=False` by default (moving statistics are used), a Python bool picks
    one path at graph-build time, a boolean tensor builds both; 4-D inputs normalised over axis 1
    or 3 use the fused kernel unless `fused=False` (whose moving variance then gets the
    Bessel-corrected batch variance, the non-fused path the biased one, exactly like TF 1.15).
    Variables: `gamma`, `beta` (trainable), `moving_mean`, `moving_variance` (ON_READ, MEAN).
    Run the updates with `tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS))`.
    """
    for option, value, default in (("renorm", renorm, False),
                                   ("virtual_batch_size", virtual_batch_size, None),
                                   ("adjustment", adjustment, None)):
        if value != default and value is not default:
            raise NotImplementedError(
                f"batch_normalization({option}={value!r}) is not supported by "
                "estimator_bridge.layers; only the standard batch norm is. Remove the "
                f"`{option}` argument or keep the model on TF 1.15 for it.")
    del renorm_clipping, renorm_momentum
    inputs = _as_input_tensor(inputs, "batch_normalization")
    with _layer_scope(name, "batch_normalization", reuse) as scope:
        ndims = inputs.shape.rank
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if not all(isinstance(a, int) for a in axes):
            raise TypeError(f"axis must be int or list, type given: {type(axis)}")
        axes = [a + ndims if a < 0 else a for a in axes]
        for a in axes:
            if a < 0 or a >= ndims:
                raise ValueError(f"Invalid axis: {a} for input of rank {ndims} ({scope.name})")
        if len(axes) != len(set(axes)):
            raise ValueError(f"Duplicate axis: {axes} ({scope.name})")
        # TF 1.15 (Keras-1 behaviour): fused=None/True means "fused when the kernel can do it".
        use_fused = fused is not False and ndims == 4 and axes in ([1], [3])
        axis_dims = {a: tf.compat.dimension_value(inputs.shape[a]) for a in axes}
        if any(dim is None for dim in axis_dims.values()):
            raise ValueError(
                f"Input has undefined `axis` dimension. Input shape: {inputs.shape} ({scope.name})")
        if len(axes) == 1:
            param_shape = [axis_dims[axes[0]]]
        else:
            param_shape = [axis_dims.get(i, 1) for i in range(ndims)]
        input_dtype = inputs.dtype.base_dtype
        param_dtype = tf.float32 if input_dtype in (tf.float16, tf.bfloat16) else input_dtype

        gamma = beta = None
        if scale:
            gamma = _get_weight("gamma", param_shape, param_dtype, gamma_initializer,
                                gamma_regularizer, trainable, gamma_constraint)
        if center:
            beta = _get_weight("beta", param_shape, param_dtype, beta_initializer,
                               beta_regularizer, trainable, beta_constraint)
        # TF1 created the moving statistics without the scope's partitioner.
        current = tf1.get_variable_scope()
        partitioner = current.partitioner
        current.set_partitioner(None)
        try:
            moving_mean, moving_variance = (
                _get_weight(stat_name, param_shape, param_dtype, initializer, trainable=False,
                            synchronization=tf.VariableSynchronization.ON_READ,
                            aggregation=tf.VariableAggregation.MEAN)
                for stat_name, initializer in (("moving_mean", moving_mean_initializer),
                                               ("moving_variance", moving_variance_initializer)))
        finally:
            current.set_partitioner(partitioner)

        statistics = _BatchNormState(inputs, gamma, beta, moving_mean, moving_variance, axes,
                                     param_shape, momentum, epsilon, training)
        if use_fused:
            outputs, updates = statistics.fused(data_format="NCHW" if axes == [1] else "NHWC")
        else:
            outputs, updates = statistics.plain()
        _add_updates(updates)
    return outputs


class _BatchNormState:
    """The two batch-norm paths of TF 1.15's Keras-1 `BatchNormalizationBase.call`."""

    def __init__(self, inputs, gamma, beta, moving_mean, moving_variance, axes, param_shape,
                 momentum, epsilon, training):
        self.inputs = inputs
        self.gamma, self.beta = gamma, beta
        self.moving_mean, self.moving_variance = moving_mean, moving_variance
        self.axes, self.param_shape = axes, param_shape
        self.momentum, self.epsilon, self.training = momentum, epsilon, training
        self.training_value = _smart_cond.smart_constant_value(training) \
            if not isinstance(training, bool) else training

    def _assign_moving_average(self, variable, value, momentum):
        with tf1.name_scope("AssignMovingAvg") as scope:
            with tf1.colocate_with(variable):
                decay = tf.convert_to_tensor(1.0 - momentum, name="decay")
                if decay.dtype != variable.dtype.base_dtype:
                    decay = tf.cast(decay, variable.dtype.base_dtype)
                update_delta = (variable - tf.cast(value, variable.dtype)) * decay
                return tf1.assign_sub(variable, update_delta, name=scope)

    def fused(self, data_format):
        """FusedBatchNormV3; updates use a float32 momentum tensor, as TF 1.15's fused path did."""
        param_dtype = self.moving_mean.dtype.base_dtype
        gamma = self.gamma if self.gamma is not None else tf.constant(
            1.0, dtype=param_dtype, shape=self.param_shape)
        beta = self.beta if self.beta is not None else tf.constant(
            0.0, dtype=param_dtype, shape=self.param_shape)
        epsilon = max(self.epsilon, _FUSED_BATCH_NORM_MIN_EPSILON)

        def fused_training():
            return tf1.nn.fused_batch_norm(self.inputs, gamma, beta, epsilon=epsilon,
                                           data_format=data_format)

        def fused_inference():
            return tf1.nn.fused_batch_norm(self.inputs, gamma, beta, mean=self.moving_mean,
                                           variance=self.moving_variance, epsilon=epsilon,
                                           is_training=False, data_format=data_format)

        outputs, mean, variance = _smart_cond.smart_cond(self.training, fused_training,
                                                         fused_inference)
        if self.training_value is None:
            momentum = _smart_cond.smart_cond(self.training, lambda: self.momentum, lambda: 1.0)
        else:
            momentum = tf.convert_to_tensor(self.momentum)
        updates = []
        if self.training_value or self.training_value is None:
            updates = [self._assign_moving_average(self.moving_mean, mean, momentum),
                       self._assign_moving_average(self.moving_variance, variance, momentum)]
        return outputs, updates

    def plain(self):
        """`nn.moments` + `nn.batch_normalization`; updates use the Python momentum."""
        inputs = self.inputs
        ndims = inputs.shape.rank
        reduction_axes = [i for i in range(ndims) if i not in self.axes]
        broadcast_shape = [1] * ndims
        broadcast_shape[self.axes[0]] = tf.compat.dimension_value(inputs.shape[self.axes[0]])

        def broadcast(value):
            if (value is not None and len(value.shape) != ndims
                    and reduction_axes != list(range(ndims - 1))):
                return tf.reshape(value, broadcast_shape)
            return value

        scale, offset = broadcast(self.gamma), broadcast(self.beta)
        updates = []
        if self.training_value is False:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            keep_dims = len(self.axes) > 1
            param_dtype = self.moving_mean.dtype.base_dtype
            batch_mean, batch_variance = tf.nn.moments(
                tf.cast(inputs, param_dtype), reduction_axes, keepdims=keep_dims)
            mean = _smart_cond.smart_cond(self.training, lambda: batch_mean,
                                          lambda: tf.convert_to_tensor(self.moving_mean))
            variance = _smart_cond.smart_cond(self.training, lambda: batch_variance,
                                              lambda: tf.convert_to_tensor(self.moving_variance))
            for variable, value in ((self.moving_mean, mean), (self.moving_variance, variance)):
                updates.append(_smart_cond.smart_cond(
                    self.training,
                    lambda variable=variable, value=value: self._assign_moving_average(
                        variable, value, self.momentum),
                    lambda variable=variable: variable))
        mean = tf.cast(mean, inputs.dtype)
        variance = tf.cast(variance, inputs.dtype)
        if offset is not None:
            offset = tf.cast(offset, inputs.dtype)
        if scale is not None:
            scale = tf.cast(scale, inputs.dtype)
        outputs = tf.nn.batch_normalization(inputs, broadcast(mean), broadcast(variance), offset,
                                            scale, self.epsilon)
        outputs.set_shape(inputs.shape)
        return outputs, updates


# ----------------------------------------------------------------------------- object API


class _LayerObject:
    """Base of TF1's object API (`tf.layers.Dense(3)` then `layer(x)`), over the functions above.

    The configuration is taken at construction; the first call creates the variables in a scope
    uniquified from the layer's name (`dense`, `dense_1`, ...), every later call of the same
    object re-enters that scope with `reuse=True`, i.e. shares the variables, as TF 1.15 did.
    """

    _function = None
    _default_name = None

    def __init__(self, *args, name=None, **kwargs):
        parameters = type(self)._parameters()
        if len(args) > len(parameters):
            raise TypeError(f"{type(self).__name__} takes at most {len(parameters)} positional "
                            f"arguments ({len(args)} given)")
        self._config = {p.name: p.default for p in parameters}
        for parameter, value in zip(parameters, args):
            self._config[parameter.name] = value
        unknown = set(kwargs) - set(self._config) - {"dtype"}
        if unknown:
            raise TypeError(f"{type(self).__name__} got unexpected keyword arguments "
                            f"{sorted(unknown)}; it accepts {sorted(self._config)}.")
        self._config.update({k: v for k, v in kwargs.items() if k in self._config})
        missing = [p.name for p in parameters if self._config[p.name] is inspect.Parameter.empty]
        if missing:
            raise TypeError(f"{type(self).__name__} missing required arguments: {missing}")
        # TF 1.15 resolved names ("relu", "he_normal", "l2", "max_norm") in the constructor.
        self._config = _arguments.resolve(self._config)
        self._state = _LayerObjectState(name or self._default_name)
        self.name = name or self._default_name

    # TF 1.15's constructor order where it differs from the function's (checked against the
    # oracle's signatures by tests/estimator_bridge/test_layer_arguments.py).
    _order = None
    _defaults = None  # constructor defaults TF 1.15 spelled otherwise (same meaning)

    @classmethod
    def _parameters(cls):
        """The constructor's parameters: the function's, minus the per-call ones, TF1's order."""
        by_name = {p.name: p for p in inspect.signature(cls._function).parameters.values()
                   if p.name not in ("inputs", "name", "reuse", "training")}
        defaults = cls._defaults or {}
        return [by_name[name].replace(default=defaults[name]) if name in defaults
                else by_name[name] for name in (cls._order or by_name)]

    @classmethod
    def _signature(cls):
        parameters = cls._parameters() + [
            inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
            inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)]
        return inspect.Signature(parameters)

    def __call__(self, inputs, *args, **kwargs):
        token = _calling_object.set(self._state)
        try:
            outputs = type(self)._function(inputs, *args, **self._config, **kwargs)
        finally:
            _calling_object.reset(token)
        self.name = self._state.scope.name.rsplit("/", 1)[-1]
        self.built = True
        return outputs

    apply = __call__
    built = False

    @property
    def scope_name(self):
        if self._state.scope is None:
            raise ValueError(f'No name available for layer scope because the layer "{self.name}" '
                             "has not been used yet. Call the layer before querying `scope_name`.")
        return self._state.scope.name

    @property
    def variables(self):
        return list(self._state.variables)

    weights = variables

    @property
    def trainable_variables(self):
        return [v for v in self._state.variables if v.trainable]

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self):
        return [v for v in self._state.variables if not v.trainable]

    non_trainable_weights = non_trainable_variables

    @property
    def updates(self):
        return list(self._state.updates)


def _object_layer(class_name, function, default_name, extra_doc="", order=None, defaults=None):
    """A layer class whose calls run `function` (staticmethod: no bound `self`).

    Not `tf.layers.Layer`, the base for user-defined layers with build()/call(): that one is not
    provided (it is Keras-1 machinery).
    """
    doc = (f"`tf.layers.{class_name}`: object form of `{function.__name__}` (variables shared "
           f"by every call of one object).{extra_doc}")
    cls = type(class_name, (_LayerObject,), {"_function": staticmethod(function),
                                              "_default_name": default_name, "__doc__": doc,
                                              "_order": order, "_defaults": defaults})
    cls.__signature__ = cls._signature()  # what inspect.signature shows: TF 1.15's
    return cls


Dense = _object_layer("Dense", dense, "dense")
Conv1D = _object_layer("Conv1D", conv1d, "conv1d")
Conv2D = _object_layer("Conv2D", conv2d, "conv2d")
Conv2DTranspose = _object_layer("Conv2DTranspose", conv2d_transpose, "conv2d_transpose")
MaxPooling1D = _object_layer("MaxPooling1D", max_pooling1d, "max_pooling1d")
MaxPooling2D = _object_layer("MaxPooling2D", max_pooling2d, "max_pooling2d")
AveragePooling1D = _object_layer("AveragePooling1D", average_pooling1d, "average_pooling1d")
AveragePooling2D = _object_layer("AveragePooling2D", average_pooling2d, "average_pooling2d")
Flatten = _object_layer("Flatten", flatten, "flatten", defaults={"data_format": None})
Conv3D = _object_layer("Conv3D", conv3d, "conv3d")
SeparableConv2D = _object_layer("SeparableConv2D", separable_conv2d, "separable_conv2d")
MaxPooling3D = _object_layer("MaxPooling3D", max_pooling3d, "max_pooling3d")
AveragePooling3D = _object_layer("AveragePooling3D", average_pooling3d, "average_pooling3d")
Dropout = _object_layer("Dropout", dropout, "dropout",
                        " Call it as `layer(inputs, training=...)`.")
BatchNormalization = _object_layer(
    "BatchNormalization", batch_normalization, "batch_normalization",
    " Call it as `layer(inputs, training=...)`; `layer.updates` holds its moving-average updates.",
    order=("axis", "momentum", "epsilon", "center", "scale", "beta_initializer",
           "gamma_initializer", "moving_mean_initializer", "moving_variance_initializer",
           "beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint",
           "renorm", "renorm_clipping", "renorm_momentum", "fused", "trainable",
           "virtual_batch_size", "adjustment"))


# ----------------------------------------------------------------------------- layer_norm


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
