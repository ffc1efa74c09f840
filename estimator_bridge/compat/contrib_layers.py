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
differ from TF 1.15 (they have no variables). Not ported: batch_norm, separable_conv2d,
conv2d_in_plane, bias_add (the codemod reports them, MIG301).
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
           "instance_norm", "max_pool2d", "max_pool3d", "avg_pool2d", "avg_pool3d", "dropout"]

_RENAME = {"bias": "biases", "kernel": "weights"}


def _layer_variable_getter(getter, name, *args, collections=None, **kwargs):
    """contrib's `_build_variable_getter({'bias': 'biases', 'kernel': 'weights'})` with
    `model_variable`: the renamed variable, in GLOBAL_VARIABLES and MODEL_VARIABLES."""
    parts = name.split("/")
    parts[-1] = _RENAME.get(parts[-1], parts[-1])
    collections = list(collections or []) + [tf1.GraphKeys.GLOBAL_VARIABLES,
                                              tf1.GraphKeys.MODEL_VARIABLES]
    return getter("/".join(parts), *args, collections=list(set(collections)), **kwargs)


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


def _variable_scope(scope, default_name, inputs, reuse):
    return tf1.variable_scope(scope, default_name, [inputs], reuse=reuse,
                              custom_getter=_layer_variable_getter)


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


def _model_variable(name, shape, dtype, initializer, variables_collections, trainable):
    """contrib's model_variable: GLOBAL_VARIABLES + MODEL_VARIABLES (+ the caller's collections)."""
    extra = _collections_for(variables_collections, name) or []
    extra = [extra] if isinstance(extra, str) else list(extra)
    collections = list(set(extra + [tf1.GraphKeys.GLOBAL_VARIABLES, tf1.GraphKeys.MODEL_VARIABLES]))
    return tf1.get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                            collections=collections, trainable=trainable)


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
