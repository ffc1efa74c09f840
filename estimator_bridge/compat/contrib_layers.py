"""tf.contrib.layers' layer functions: TF 1.15's code (contrib/layers/python/layers/layers.py and
normalization.py's instance_norm) on the bridge's TF1 layers (estimator_bridge/layers/).

TF 2 has no contrib.layers, and tf_slim's copy needs Keras 2 for some layers. These keep TF 1.15's
signatures, defaults and names, so a checkpoint written by TF 1.15 restores and a model computes
what it computed there (tests/migrate/test_contrib_equivalents.py, fixture contrib/contrib_layers):

* scopes: `variable_scope(scope, 'Conv' | 'Conv2d_transpose' | 'Conv3d_transpose' |
  'fully_connected' | 'InstanceNorm' | 'Dropout', reuse=reuse)`, uniquified as in TF1;
* variables: `<scope>/weights` and `/biases` (the Keras-1 layer's kernel and bias, renamed by
  contrib's custom getter), in GLOBAL_VARIABLES and MODEL_VARIABLES, plus `variables_collections`;
* defaults: `activation_fn=relu`, weights from contrib's xavier_initializer (uniform fan_avg),
  biases zeros, no biases when `normalizer_fn` is given (then `normalizer_fn(outputs,
  **normalizer_params)` before the activation);
* `data_format` in TF's spelling ('NHWC', 'NCDHW', ...; None means channels last);
* `outputs_collections` get the output with its alias (the scope name), as contrib's
  `collect_named_outputs` did; every function is `add_arg_scope`-decorated.

The arithmetic is the bridge's TF1 layers (the same ops as TF 1.15's Keras-1 layers). Pooling
and dropout run the bridge's nameless tf.layers functions inside contrib's scope: only op names
differ from TF 1.15 (they have no variables).

Also here: `bias_add` (`BiasAdd/biases`), `separable_conv2d` (`SeparableConv2d/depthwise_weights`,
`/pointwise_weights`, `/biases`; `num_outputs=None` is the depthwise convolution alone),
`conv2d_in_plane` (`ConvInPlane/weights`, one kernel tiled over the channels), `flatten`,
`one_hot_encoding`, `repeat` and `stack` (scopes `<scope>/<scope>_1`, ...). `batch_norm` is
compat/contrib_batch_norm.py (its three TF 1.15 paths); `layer_norm` and the initializers and
regularizers are compat/contrib_helpers.py.
"""

from __future__ import annotations

import functools

import tensorflow as tf

from estimator_bridge import layers as tf1_layers
from estimator_bridge.compat.contrib_arg_scope import add_arg_scope
from estimator_bridge.compat.contrib_helpers import xavier_initializer

tf1 = tf.compat.v1

__all__ = ["convolution", "convolution1d", "convolution2d", "convolution3d", "conv1d", "conv2d",
           "conv3d", "convolution2d_transpose", "convolution3d_transpose", "conv2d_transpose",
           "conv3d_transpose", "fully_connected", "linear", "relu", "relu6", "elu",
           "instance_norm", "max_pool2d", "max_pool3d", "avg_pool2d", "avg_pool3d", "dropout",
           "bias_add", "flatten", "one_hot_encoding", "repeat", "stack", "separable_conv2d",
           "separable_convolution2d", "conv2d_in_plane", "convolution2d_in_plane", "softmax"]

_RENAME = {"bias": "biases", "kernel": "weights"}
_SEPARABLE_RENAME = {"bias": "biases", "depthwise_kernel": "depthwise_weights",
                     "pointwise_kernel": "pointwise_weights"}


def _variable_getter(rename):
    """contrib's `_build_variable_getter(rename)` with `model_variable`: the Keras-1 layer's
    variable renamed, in GLOBAL_VARIABLES and MODEL_VARIABLES."""
    def layer_variable_getter(getter, name, *args, collections=None, **kwargs):
        parts = name.split("/")
        parts[-1] = rename.get(parts[-1], parts[-1])
        collections = list(collections or []) + [tf1.GraphKeys.GLOBAL_VARIABLES,
                                                  tf1.GraphKeys.MODEL_VARIABLES]
        return getter("/".join(parts), *args, collections=list(set(collections)), **kwargs)
    return layer_variable_getter


_layer_variable_getter = _variable_getter(_RENAME)


def _collections_for(variables_collections, name):
    """contrib's utils.get_variable_collections: a dict per variable name, or one list for all."""
    if isinstance(variables_collections, dict):
        return variables_collections.get(name)
    return variables_collections


def _add_variable_to_collections(variable, variables_collections, name):
    collections = _collections_for(variables_collections, name) or []
    if isinstance(collections, str):
        collections = [collections]
    for collection in collections:
        if all(known is not variable for known in tf1.get_collection(collection)):
            tf1.add_to_collection(collection, variable)


def _collect_named_outputs(outputs_collections, alias, outputs):
    """contrib's utils.collect_named_outputs: the output tagged with its alias, in the collections."""
    if outputs_collections:
        alias = alias[:-1] if alias.endswith("/") else alias
        aliases = getattr(outputs, "aliases", None)
        if aliases is None:
            outputs.aliases = [alias]
        else:
            aliases.append(alias)
        collections = [outputs_collections] if isinstance(outputs_collections, str) \
            else outputs_collections
        for collection in collections:
            tf1.add_to_collection(collection, outputs)
    return outputs


def _channels(data_format):
    return "channels_first" if data_format and data_format.startswith("NC") else "channels_last"


def _variable_scope(scope, default_name, inputs, reuse, getter=_layer_variable_getter):
    return tf1.variable_scope(scope, default_name, [inputs], reuse=reuse, custom_getter=getter)


def _layer_weights(scope_name):
    """The layer's own variables by short name (contrib read `layer.kernel` and `layer.bias`)."""
    prefix = scope_name + "/"
    return {var.op.name[len(prefix):]: var
            for var in tf1.get_collection(tf1.GraphKeys.MODEL_VARIABLES, prefix)
            if var.op.name.startswith(prefix) and "/" not in var.op.name[len(prefix):]}


def _after_layer(layer_scope, outputs, use_bias, variables_collections, outputs_collections,
                 normalizer_fn, normalizer_params, activation_fn):
    """What contrib did after the Keras-1 layer: the caller's collections for the weights and
    biases, then the normalizer, the activation and the named output."""
    if variables_collections:
        made = _layer_weights(layer_scope.name)
        _add_variable_to_collections(made["weights"], variables_collections, "weights")
        if use_bias:
            _add_variable_to_collections(made["biases"], variables_collections, "biases")
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)


# ----------------------------------------------------------------------------- convolutions

_CONV_BY_RANK = {3: tf1_layers.conv1d, 4: tf1_layers.conv2d, 5: tf1_layers.conv3d}


@add_arg_scope
def convolution(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None,
                rate=1, activation_fn=tf.nn.relu, normalizer_fn=None, normalizer_params=None,
                weights_initializer=xavier_initializer(), weights_regularizer=None,
                biases_initializer=tf1.zeros_initializer(), biases_regularizer=None, reuse=None,
                variables_collections=None, outputs_collections=None, trainable=True, scope=None,
                conv_dims=None):
    """tf.contrib.layers.convolution: an N-D convolution (N from the input's rank, 1 to 3),
    variables `<scope or Conv>/weights` and `/biases`, then normalizer_fn and activation_fn."""
    if data_format not in (None, "NWC", "NCW", "NHWC", "NCHW", "NDHWC", "NCDHW"):
        raise ValueError(f"Invalid data_format: {data_format!r}")
    with _variable_scope(scope, "Conv", inputs, reuse) as layer_scope:
        inputs = tf.convert_to_tensor(inputs)
        input_rank = inputs.shape.rank
        if conv_dims is not None and conv_dims + 2 != input_rank:
            raise ValueError(f"Convolution expects input with rank {conv_dims + 2}, got {input_rank}")
        if input_rank not in _CONV_BY_RANK:
            raise ValueError("Convolution not supported for input with rank", input_rank)
        use_bias = bool(not normalizer_fn and biases_initializer)
        outputs = _CONV_BY_RANK[input_rank](
            inputs, num_outputs, kernel_size, strides=stride, padding=padding,
            data_format=_channels(data_format), dilation_rate=rate, activation=None,
            use_bias=use_bias, kernel_initializer=weights_initializer,
            bias_initializer=biases_initializer, kernel_regularizer=weights_regularizer,
            bias_regularizer=biases_regularizer, trainable=trainable, name=layer_scope,
            reuse=reuse)
        return _after_layer(layer_scope, outputs, use_bias, variables_collections,
                            outputs_collections, normalizer_fn, normalizer_params, activation_fn)


def _fixed_rank(conv_dims, name):
    @add_arg_scope
    def convolution_nd(inputs, num_outputs, kernel_size, stride=1, padding="SAME",
                       data_format=None, rate=1, activation_fn=tf.nn.relu, normalizer_fn=None,
                       normalizer_params=None, weights_initializer=xavier_initializer(),
                       weights_regularizer=None, biases_initializer=tf1.zeros_initializer(),
                       biases_regularizer=None, reuse=None, variables_collections=None,
                       outputs_collections=None, trainable=True, scope=None):
        return convolution(inputs, num_outputs, kernel_size, stride, padding, data_format, rate,
                           activation_fn, normalizer_fn, normalizer_params, weights_initializer,
                           weights_regularizer, biases_initializer, biases_regularizer, reuse,
                           variables_collections, outputs_collections, trainable, scope,
                           conv_dims=conv_dims)

    convolution_nd.__name__ = convolution_nd.__qualname__ = name
    convolution_nd.__doc__ = f"tf.contrib.layers.{name}: `convolution(..., conv_dims={conv_dims})`."
    return convolution_nd


convolution1d = conv1d = _fixed_rank(1, "convolution1d")
convolution2d = conv2d = _fixed_rank(2, "convolution2d")
convolution3d = conv3d = _fixed_rank(3, "convolution3d")


def _transpose(rank, default_name, layer, formats):
    @add_arg_scope
    def convolution_transpose(inputs, num_outputs, kernel_size, stride=1, padding="SAME",
                              data_format=formats[1], activation_fn=tf.nn.relu,
                              normalizer_fn=None, normalizer_params=None,
                              weights_initializer=xavier_initializer(), weights_regularizer=None,
                              biases_initializer=tf1.zeros_initializer(),
                              biases_regularizer=None, reuse=None, variables_collections=None,
                              outputs_collections=None, trainable=True, scope=None):
        with _variable_scope(scope, default_name, inputs, reuse) as layer_scope:
            if data_format not in formats:
                raise ValueError(f"data_format has to be either {formats[0]} or {formats[1]}.")
            inputs = tf.convert_to_tensor(inputs)
            use_bias = bool(not normalizer_fn and biases_initializer)
            outputs = layer(
                inputs, num_outputs, kernel_size, strides=stride, padding=padding,
                data_format=_channels(data_format), activation=None, use_bias=use_bias,
                kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
                kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
                trainable=trainable, name=layer_scope, reuse=reuse)
            return _after_layer(layer_scope, outputs, use_bias, variables_collections,
                                outputs_collections, normalizer_fn, normalizer_params,
                                activation_fn)

    name = f"convolution{rank}d_transpose"
    convolution_transpose.__name__ = convolution_transpose.__qualname__ = name
    convolution_transpose.__doc__ = (
        f"tf.contrib.layers.{name}: variables `<scope or {default_name}>/weights` "
        f"(kernel size + [num_outputs, in_channels]) and `/biases`; then normalizer and activation.")
    return convolution_transpose


convolution2d_transpose = conv2d_transpose = _transpose(
    2, "Conv2d_transpose", tf1_layers.conv2d_transpose, ("NCHW", "NHWC"))
convolution3d_transpose = conv3d_transpose = _transpose(
    3, "Conv3d_transpose", tf1_layers.conv3d_transpose, ("NCDHW", "NDHWC"))


# ----------------------------------------------------------------------------- fully_connected


@add_arg_scope
def fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, normalizer_fn=None,
                    normalizer_params=None, weights_initializer=xavier_initializer(),
                    weights_regularizer=None, biases_initializer=tf1.zeros_initializer(),
                    biases_regularizer=None, reuse=None, variables_collections=None,
                    outputs_collections=None, trainable=True, scope=None):
    """tf.contrib.layers.fully_connected: variables `<scope or fully_connected>/weights` and
    `/biases` (inputs of rank > 2 contracted on their last axis), normalizer, activation."""
    if not isinstance(num_outputs, int):
        raise ValueError(f"num_outputs type should be one of [<class 'int'>], got {type(num_outputs)}.")
    with _variable_scope(scope, "fully_connected", inputs, reuse) as layer_scope:
        inputs = tf.convert_to_tensor(inputs)
        use_bias = bool(not normalizer_fn and biases_initializer)
        outputs = tf1_layers.dense(
            inputs, num_outputs, activation=None, use_bias=use_bias,
            kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
            kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
            trainable=trainable, name=layer_scope, reuse=reuse)
        return _after_layer(layer_scope, outputs, use_bias, variables_collections,
                            outputs_collections, normalizer_fn, normalizer_params, activation_fn)


linear = functools.partial(fully_connected, activation_fn=None)
relu = functools.partial(fully_connected, activation_fn=tf.nn.relu)
relu6 = functools.partial(fully_connected, activation_fn=tf.nn.relu6)
elu = functools.partial(fully_connected, activation_fn=tf.nn.elu)


# ----------------------------------------------------------------------------- instance_norm


@add_arg_scope
def instance_norm(inputs, center=True, scale=True, epsilon=1e-6, activation_fn=None,
                  param_initializers=None, reuse=None, variables_collections=None,
                  outputs_collections=None, trainable=True, data_format="NHWC", scope=None):
    """tf.contrib.layers.instance_norm: per-example, per-channel moments over the spatial axes,
    variables `<scope or InstanceNorm>/beta` (zeros) and `/gamma` (ones), epsilon 1e-6."""
    inputs = tf.convert_to_tensor(inputs)
    inputs_shape = inputs.shape
    inputs_rank = inputs.shape.rank
    if inputs_rank is None:
        raise ValueError(f"Inputs {inputs.name} has undefined rank.")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with tf1.variable_scope(scope, "InstanceNorm", [inputs], reuse=reuse) as layer_scope:
        if data_format == "NCHW":
            reduction_axis = 1
            params_shape_broadcast = [1, inputs_shape[1]] + [1] * (inputs_rank - 2)
        else:
            reduction_axis = inputs_rank - 1
            params_shape_broadcast = None
        moments_axes = list(range(inputs_rank))
        del moments_axes[reduction_axis]
        del moments_axes[0]
        params_shape = inputs_shape[reduction_axis:reduction_axis + 1]
        if not params_shape.is_fully_defined():
            raise ValueError(
                f"Inputs {inputs.name} has undefined channels dimension {params_shape}.")
        beta = gamma = None
        dtype = inputs.dtype.base_dtype
        param_initializers = param_initializers or {}
        if center:
            beta = _model_variable("beta", params_shape, dtype,
                                   param_initializers.get("beta", tf1.zeros_initializer()),
                                   variables_collections, trainable)
            if params_shape_broadcast:
                beta = tf.reshape(beta, params_shape_broadcast)
        if scale:
            gamma = _model_variable("gamma", params_shape, dtype,
                                    param_initializers.get("gamma", tf1.ones_initializer()),
                                    variables_collections, trainable)
            if params_shape_broadcast:
                gamma = tf.reshape(gamma, params_shape_broadcast)
        mean, variance = tf.nn.moments(inputs, moments_axes, keepdims=True)
        outputs = tf.nn.batch_normalization(inputs, mean, variance, beta, gamma, epsilon,
                                            name="instancenorm")
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)


def _model_variable(name, shape, dtype, initializer, variables_collections, trainable,
                    regularizer=None, **synchronization):
    """contrib's model_variable: GLOBAL_VARIABLES + MODEL_VARIABLES (+ the caller's collections),
    the regularizer's loss in REGULARIZATION_LOSSES (get_variable's)."""
    extra = _collections_for(variables_collections, name) or []
    extra = [extra] if isinstance(extra, str) else list(extra)
    collections = list(set(extra + [tf1.GraphKeys.GLOBAL_VARIABLES, tf1.GraphKeys.MODEL_VARIABLES]))
    return tf1.get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                            regularizer=regularizer, collections=collections, trainable=trainable,
                            **synchronization)


# ----------------------------------------------------------------------------- pooling, dropout


def _pool(rank, default_name, layer, formats):
    @add_arg_scope
    def pool(inputs, kernel_size, stride=2, padding="VALID", data_format=formats[1],
             outputs_collections=None, scope=None):
        if data_format not in formats:
            raise ValueError(f"data_format has to be either {formats[0]} or {formats[1]}.")
        with tf1.name_scope(scope, default_name, [inputs]) as name_scope:
            inputs = tf.convert_to_tensor(inputs)
            outputs = layer(inputs, kernel_size, stride, padding=padding,
                            data_format=_channels(data_format))
            return _collect_named_outputs(outputs_collections, name_scope, outputs)

    pool.__doc__ = (f"tf.contrib.layers' {default_name}: kernel_size, stride (default 2), "
                    f"padding (default VALID), data_format {formats[1]} or {formats[0]}.")
    return pool


max_pool2d = _pool(2, "MaxPool2D", tf1_layers.max_pooling2d, ("NCHW", "NHWC"))
max_pool3d = _pool(3, "MaxPool3D", tf1_layers.max_pooling3d, ("NCDHW", "NDHWC"))
avg_pool2d = _pool(2, "AvgPool2D", tf1_layers.average_pooling2d, ("NCHW", "NHWC"))
avg_pool3d = _pool(3, "AvgPool3D", tf1_layers.average_pooling3d, ("NCDHW", "NDHWC"))
for _function, _name in ((max_pool2d, "max_pool2d"), (max_pool3d, "max_pool3d"),
                         (avg_pool2d, "avg_pool2d"), (avg_pool3d, "avg_pool3d")):
    _function.__name__ = _function.__qualname__ = _name


@add_arg_scope
def dropout(inputs, keep_prob=0.5, noise_shape=None, is_training=True, outputs_collections=None,
            scope=None, seed=None):
    """tf.contrib.layers.dropout: keep `keep_prob` of the units when `is_training` (default
    True, unlike tf.layers.dropout), scaled by 1 / keep_prob with TF 1.15's formula."""
    with tf1.variable_scope(scope, "Dropout", [inputs]) as layer_scope:
        inputs = tf.convert_to_tensor(inputs)
        outputs = tf1_layers.dropout(inputs, rate=1 - keep_prob, noise_shape=noise_shape,
                                     seed=seed, training=is_training)
        return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)


# ----------------------------------------------------------------------------- bias_add, flatten


@add_arg_scope
def bias_add(inputs, activation_fn=None, initializer=tf1.zeros_initializer(), regularizer=None,
             reuse=None, variables_collections=None, outputs_collections=None, trainable=True,
             data_format="NHWC", scope=None):
    """tf.contrib.layers.bias_add: a variable `<scope or BiasAdd>/biases` of the channel count
    (last axis, or axis 1 for NCHW, which needs a 4-D input), added by `nn.bias_add`."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with tf1.variable_scope(scope, "BiasAdd", [inputs], reuse=reuse) as layer_scope:
        inputs = tf.convert_to_tensor(inputs)
        dtype = inputs.dtype.base_dtype
        inputs_rank = inputs.shape.rank
        if inputs_rank is None:
            raise ValueError("Dims of shape must be known but is None")
        if inputs_rank != 4 and data_format == "NCHW":
            raise ValueError("Data format NCHW only supports 4D Tensor")
        num_features = tf.compat.dimension_value(inputs.shape[1 if data_format == "NCHW" else -1])
        if num_features is None:
            raise ValueError("`C` dimension must be known but is None")
        biases = _model_variable("biases", [num_features], dtype, initializer,
                                 variables_collections, trainable, regularizer=regularizer)
        outputs = tf.nn.bias_add(inputs, biases, data_format=data_format)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)


@add_arg_scope
def flatten(inputs, outputs_collections=None, scope=None):
    """tf.contrib.layers.flatten: `[batch, ...]` -> `[batch, k]` (tf.layers.flatten) in the name
    scope `<scope or Flatten>`, the output collected under that alias."""
    with tf1.name_scope(scope, "Flatten", [inputs]) as name_scope:
        inputs = tf.convert_to_tensor(inputs)
        outputs = tf1_layers.flatten(inputs)
        return _collect_named_outputs(outputs_collections, name_scope, outputs)


@add_arg_scope
def one_hot_encoding(labels, num_classes, on_value=1.0, off_value=0.0, outputs_collections=None,
                     scope=None):
    """tf.contrib.layers.one_hot_encoding: `tf.one_hot` (int32 labels widened to int64 first, as
    TF 1.15 did), float32 unless the on/off values say otherwise."""
    with tf1.name_scope(scope, "OneHotEncoding", [labels, num_classes]) as name_scope:
        labels = tf.convert_to_tensor(labels)
        if labels.dtype == tf.int32:
            labels = tf.cast(labels, tf.int64)
        outputs = tf.one_hot(labels, num_classes, on_value=on_value, off_value=off_value)
        return _collect_named_outputs(outputs_collections, name_scope, outputs)


# ----------------------------------------------------------------------------- repeat, stack


def _scope_prefix(layer, fallback):
    if hasattr(layer, "__name__"):
        return layer.__name__
    if hasattr(layer, "func") and hasattr(layer.func, "__name__"):
        return layer.func.__name__  # a functools.partial
    return fallback


def repeat(inputs, repetitions, layer, *args, **kwargs):
    """tf.contrib.layers.repeat: `layer(x, *args, scope=<scope>_1 ... _n)` in `variable_scope(
    scope, 'Repeat')`; without a scope, the prefix is the layer's `__name__` (contrib's
    conv2d is named `convolution2d`: TF 1.15's `conv1/convolution2d_1/weights`)."""
    scope = kwargs.pop("scope", None)
    with tf1.variable_scope(scope, "Repeat", [inputs]):
        inputs = tf.convert_to_tensor(inputs)
        if scope is None:
            scope = _scope_prefix(layer, "repeat")
        outputs = inputs
        for i in range(repetitions):
            kwargs["scope"] = scope + "_" + str(i + 1)
            outputs = layer(outputs, *args, **kwargs)
        return outputs


def stack(inputs, layer, stack_args, **kwargs):
    """tf.contrib.layers.stack: `layer(x, *stack_args[i], scope=<scope>_<i+1>)` in
    `variable_scope(scope, 'Stack')`, each argument tuple (or single value) in turn."""
    scope = kwargs.pop("scope", None)
    if not isinstance(stack_args, (list, tuple)):
        raise ValueError("stack_args need to be a list or tuple")
    with tf1.variable_scope(scope, "Stack", [inputs]):
        inputs = tf.convert_to_tensor(inputs)
        if scope is None:
            scope = _scope_prefix(layer, "stack")
        outputs = inputs
        for i, layer_args in enumerate(stack_args):
            kwargs["scope"] = scope + "_" + str(i + 1)
            if not isinstance(layer_args, (list, tuple)):
                layer_args = [layer_args]
            outputs = layer(outputs, *layer_args, **kwargs)
        return outputs


# ----------------------------------------------------------------------------- separable, in-plane


def _two_element_tuple(int_or_tuple):
    """contrib's utils.two_element_tuple."""
    if isinstance(int_or_tuple, (list, tuple)):
        if len(int_or_tuple) != 2:
            raise ValueError(f"Must be a list with 2 elements: {int_or_tuple}")
        return int(int_or_tuple[0]), int(int_or_tuple[1])
    if isinstance(int_or_tuple, int):
        return int(int_or_tuple), int(int_or_tuple)
    if isinstance(int_or_tuple, tf.TensorShape) and len(int_or_tuple) == 2:
        return int_or_tuple[0], int_or_tuple[1]
    raise ValueError("Must be an int, a list with 2 elements or a TensorShape of length 2")


def _dimension(shape, axis, min_rank):
    """contrib's utils._get_dimension (channel_dimension, last_dimension)."""
    if shape.rank is None:
        raise ValueError("dims of shape must be known but is None")
    if shape.rank < min_rank:
        raise ValueError(f"rank of shape must be at least {min_rank} not: {shape.rank}")
    value = tf.compat.dimension_value(shape[axis])
    if value is None:
        raise ValueError(f"dimension {axis} of shape must be known but is None: {shape}")
    return value


def _normalize_or_bias(outputs, normalizer_fn, normalizer_params, biases_initializer,
                       biases_regularizer, num_outputs, dtype, variables_collections, trainable,
                       data_format="NHWC"):
    """contrib's tail of a hand-built convolution: normalizer_fn, else `biases` (when
    biases_initializer) added by nn.bias_add."""
    if normalizer_fn is not None:
        return normalizer_fn(outputs, **(normalizer_params or {}))
    if biases_initializer is not None:
        biases = _model_variable("biases", [num_outputs], dtype, biases_initializer,
                                 variables_collections, trainable, regularizer=biases_regularizer)
        outputs = tf.nn.bias_add(outputs, biases, data_format=data_format)
    return outputs


@add_arg_scope
def separable_convolution2d(inputs, num_outputs, kernel_size, depth_multiplier=1, stride=1,
                            padding="SAME", data_format="NHWC", rate=1, activation_fn=tf.nn.relu,
                            normalizer_fn=None, normalizer_params=None,
                            weights_initializer=xavier_initializer(), pointwise_initializer=None,
                            weights_regularizer=None,
                            biases_initializer=tf1.zeros_initializer(), biases_regularizer=None,
                            reuse=None, variables_collections=None, outputs_collections=None,
                            trainable=True, scope=None):
    """tf.contrib.layers.separable_conv2d: `<scope or SeparableConv2d>/depthwise_weights`
    (h, w, in, depth_multiplier), `/pointwise_weights` (1, 1, in * depth_multiplier,
    num_outputs) and `/biases`; with `num_outputs=None` only the depthwise convolution
    (`nn.depthwise_conv2d`, biases of in * depth_multiplier)."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    getter = _variable_getter(_SEPARABLE_RENAME)
    with _variable_scope(scope, "SeparableConv2d", inputs, reuse, getter) as layer_scope:
        inputs = tf.convert_to_tensor(inputs)
        if pointwise_initializer is None:
            pointwise_initializer = weights_initializer
        df = _channels(data_format)
        dtype = inputs.dtype.base_dtype
        if num_outputs is not None:
            use_bias = bool(not normalizer_fn and biases_initializer)
            outputs = tf1_layers.separable_conv2d(
                inputs, num_outputs, kernel_size, strides=stride, padding=padding,
                data_format=df, dilation_rate=_two_element_tuple(rate),
                depth_multiplier=depth_multiplier, activation=None, use_bias=use_bias,
                depthwise_initializer=weights_initializer,
                pointwise_initializer=pointwise_initializer, bias_initializer=biases_initializer,
                depthwise_regularizer=weights_regularizer,
                pointwise_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
                trainable=trainable, name=layer_scope, reuse=reuse)
            if variables_collections:
                made = _layer_weights(layer_scope.name)
                for name, kind in (("depthwise_weights", "weights"),
                                   ("pointwise_weights", "weights"), ("biases", "biases")):
                    if name in made:
                        _add_variable_to_collections(made[name], variables_collections, kind)
            if normalizer_fn is not None:
                outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        else:
            kernel_h, kernel_w = _two_element_tuple(kernel_size)
            stride_h, stride_w = _two_element_tuple(stride)
            num_filters_in = _dimension(inputs.shape, 1 if df == "channels_first" else -1, 4)
            depthwise_weights = _model_variable(
                "depthwise_weights", [kernel_h, kernel_w, num_filters_in, depth_multiplier],
                dtype, weights_initializer, _collections_for(variables_collections, "weights"),
                trainable, regularizer=weights_regularizer)
            strides = [1, 1, stride_h, stride_w] if data_format.startswith("NC") \
                else [1, stride_h, stride_w, 1]
            outputs = tf1.nn.depthwise_conv2d(inputs, depthwise_weights, strides, padding,
                                              rate=_two_element_tuple(rate),
                                              data_format=data_format)
            outputs = _normalize_or_bias(
                outputs, normalizer_fn, normalizer_params, biases_initializer,
                biases_regularizer, depth_multiplier * num_filters_in, dtype,
                _collections_for(variables_collections, "biases"), trainable, data_format)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)


separable_conv2d = separable_convolution2d


@add_arg_scope
def convolution2d_in_plane(inputs, kernel_size, stride=1, padding="SAME",
                           activation_fn=tf.nn.relu, normalizer_fn=None, normalizer_params=None,
                           weights_initializer=xavier_initializer(), weights_regularizer=None,
                           biases_initializer=tf1.zeros_initializer(), biases_regularizer=None,
                           reuse=None, variables_collections=None, outputs_collections=None,
                           trainable=True, scope=None):
    """tf.contrib.layers.conv2d_in_plane: one `[kh, kw, 1, 1]` kernel `<scope or
    ConvInPlane>/weights` tiled over the channels (nn.depthwise_conv2d, NHWC), `/biases` per
    channel."""
    with tf1.variable_scope(scope, "ConvInPlane", [inputs], reuse=reuse) as layer_scope:
        dtype = inputs.dtype.base_dtype
        kernel_h, kernel_w = _two_element_tuple(kernel_size)
        stride_h, stride_w = _two_element_tuple(stride)
        num_filters_in = _dimension(inputs.shape, -1, 4)
        weights = _model_variable("weights", [kernel_h, kernel_w, 1, 1], dtype,
                                  weights_initializer,
                                  _collections_for(variables_collections, "weights"), trainable,
                                  regularizer=weights_regularizer)
        depthwise_weights = tf.tile(weights, [1, 1, num_filters_in, 1])
        outputs = tf1.nn.depthwise_conv2d(inputs, depthwise_weights, [1, stride_h, stride_w, 1],
                                          padding)
        outputs = _normalize_or_bias(
            outputs, normalizer_fn, normalizer_params, biases_initializer, biases_regularizer,
            num_filters_in, dtype, _collections_for(variables_collections, "biases"), trainable)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)


conv2d_in_plane = convolution2d_in_plane


@add_arg_scope
def softmax(logits, scope=None):
    """tf.contrib.layers.softmax: the softmax over the last axis (reshaped to 2-D and back) in
    `variable_scope(scope, 'softmax')`. The codemod writes tf.nn.softmax (the same numbers); the
    compat runner serves this, since legacy code also passes it as a default argument
    (`prediction_fn=tf.contrib.layers.softmax`)."""
    with tf1.variable_scope(scope, "softmax", [logits]):
        num_logits = _dimension(logits.shape, -1, 2)
        predictions = tf.nn.softmax(tf.reshape(logits, [-1, num_logits]))
        predictions = tf.reshape(predictions, tf.shape(logits))
        if not tf.executing_eagerly():
            predictions.set_shape(logits.shape)
        return predictions
