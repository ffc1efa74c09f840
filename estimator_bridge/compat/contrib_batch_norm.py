"""tf.contrib.layers.batch_norm: TF 1.15's code (contrib/layers/python/layers/layers.py) on
current TensorFlow, with its three paths chosen exactly as TF 1.15 chose them:

* the core path (the default: `updates_collections` is `tf.GraphKeys.UPDATE_OPS` itself, no
  `batch_weights`, no `zero_debias_moving_mean`, and fused unless the input has rank 2): the
  bridge's `tf.layers.batch_normalization` (TF 1.15's Keras-1 layer: fused kernel on 4-D inputs,
  moving averages in UPDATE_OPS) entered in contrib's `BatchNorm` scope, variables in
  MODEL_VARIABLES through contrib's custom getter;
* `_fused_batch_norm` (fused, rank 2 or 4, and rank 2, or zero-debiasing, or other
  `updates_collections`, e.g. None: the updates then run before the output is returned);
* the legacy path (otherwise, e.g. `fused=False` with `updates_collections=None`, or
  `batch_weights`): `nn.moments` (weighted with `batch_weights`) and `nn.batch_normalization`.

Variables: `<scope or BatchNorm>/beta` (center, default True), `/gamma` (scale, default False),
`/moving_mean`, `/moving_variance`; with `zero_debias_moving_mean` also TF 1.15's
`<scope>/<scope>/moving_mean/biased` and `/local_step` (assign_moving_average's zero-debias
variables, opened relative to the current scope as TF 1.15 did). `decay` 0.999 and `epsilon`
1e-3 by default (tf.layers' are 0.99 and True for scale). `is_training` may be a Python bool or
a tensor (both branches built, `tf.cond`). Not supported: `renorm` and `adjustment` (the bridge's
batch normalization raises NotImplementedError for them, naming the argument).
"""

from __future__ import annotations

import tensorflow as tf
from tensorflow.python.framework import smart_cond as _smart_cond  # contrib's utils.smart_cond

from estimator_bridge import layers as tf1_layers
from estimator_bridge.compat.contrib_arg_scope import add_arg_scope
from estimator_bridge.compat.contrib_layers import (_add_variable_to_collections,
                                                    _collect_named_outputs, _layer_weights,
                                                    _model_variable, _variable_scope)
from estimator_bridge.layers.normalization import _FUSED_BATCH_NORM_MIN_EPSILON

tf1 = tf.compat.v1

__all__ = ["batch_norm"]

_UPDATE_OPS = tf1.GraphKeys.UPDATE_OPS


def _constant_value(value):
    """contrib's utils.constant_value: a tensor's static value (None when it has none)."""
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return tf.get_static_value(value)
    return value


def _assign_moving_average(variable, value, decay, zero_debias):
    """TF 1.15's moving_averages.assign_moving_average outside a distribution strategy:
    `variable -= (variable - value) * (1 - decay)`, with `1 - decay` computed in Python and
    converted to the variable's dtype; zero-debiased through `<variable>/biased` and
    `/local_step` when asked (TF 1.15's _zero_debias)."""
    with tf1.name_scope(None, "AssignMovingAvg", [variable, value, decay]) as scope:
        decay = tf.convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype != variable.dtype.base_dtype:
            decay = tf.cast(decay, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias(variable, value, decay)
        return tf1.assign_sub(variable, (variable - value) * decay, name=scope)


def _zero_debias(unbiased, value, decay):
    with tf1.variable_scope(unbiased.name[:-len(":0")], values=[unbiased, value, decay]):
        def unique(name):
            current = tf1.get_variable_scope()
            if current.reuse:
                return name
            known = [variable.op.name for variable in current.global_variables()]
            full_name = current.name + "/" + name
            if full_name not in known:
                return name
            index = 1
            while full_name + f"_{index}" in known:
                index += 1
            return name + f"_{index}"

        with tf1.colocate_with(unbiased):
            biased = tf1.get_variable(unique("biased"), initializer=tf1.zeros_initializer(),
                                      shape=unbiased.shape, dtype=unbiased.dtype.base_dtype,
                                      trainable=False, **_PER_REPLICA)
            local_step = tf1.get_variable(unique("local_step"), shape=[],
                                          dtype=unbiased.dtype.base_dtype,
                                          initializer=tf1.zeros_initializer(), trainable=False,
                                          **_PER_REPLICA)
    update_biased = tf1.assign_sub(biased, (biased - value) * decay)
    update_local_step = local_step.assign_add(1)
    bias_factor = 1 - tf.pow(1.0 - decay, update_local_step)
    return tf1.assign(unbiased, update_biased / bias_factor,
                      name=tf1.get_default_graph().get_name_scope() + "/")


# Per-replica statistics, as the bridge's tf.layers.batch_normalization keeps them (TF 1.15's
# core path made them ON_READ/MEAN too): each replica assigns its own copy in the train step (a
# mirrored variable could only be assigned through a cross-replica merge, which `tf.cond` forbids)
# and the checkpoint holds their mean. One replica: a plain variable.
_PER_REPLICA = {"synchronization": tf.VariableSynchronization.ON_READ,
                "aggregation": tf.VariableAggregation.MEAN}


def _moving_statistics(params_shape, dtype, param_initializers, variables_collections):
    """moving_mean (zeros) and moving_variance (ones), created without the scope's partitioner."""
    with tf1.variable_scope(tf1.get_variable_scope()) as local_scope:
        local_scope.set_partitioner(None)
        return tuple(
            _model_variable(name, params_shape, dtype,
                            param_initializers.get(name, default()), variables_collections,
                            trainable=False, **_PER_REPLICA)
            for name, default in (("moving_mean", tf1.zeros_initializer),
                                  ("moving_variance", tf1.ones_initializer)))


def _scale_and_offset(center, scale, params_shape, dtype, param_initializers,
                      param_regularizers, variables_collections, trainable):
    beta = gamma = None
    if center:
        beta = _model_variable("beta", params_shape, dtype,
                               param_initializers.get("beta", tf1.zeros_initializer()),
                               variables_collections, trainable,
                               regularizer=param_regularizers.get("beta"))
    if scale:
        gamma = _model_variable("gamma", params_shape, dtype,
                                param_initializers.get("gamma", tf1.ones_initializer()),
                                variables_collections, trainable,
                                regularizer=param_regularizers.get("gamma"))
    return beta, gamma


def _update_moving_statistics(moving_mean, moving_variance, mean, variance, decay,
                              zero_debias_moving_mean):
    return (_assign_moving_average(moving_mean, mean, decay, zero_debias_moving_mean),
            _assign_moving_average(moving_variance, variance, decay, False))


def _fused_batch_norm(inputs, decay, center, scale, epsilon, activation_fn, param_initializers,
                      param_regularizers, updates_collections, is_training, reuse,
                      variables_collections, outputs_collections, trainable, data_format,
                      zero_debias_moving_mean, scope):
    """TF 1.15's `_fused_batch_norm`: float32 parameters, FusedBatchNorm, explicit updates."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with tf1.variable_scope(scope, "BatchNorm", [inputs], reuse=reuse) as layer_scope:
        inputs = tf.convert_to_tensor(inputs)
        original_shape = inputs.shape
        original_inputs = inputs
        original_rank = original_shape.rank
        if original_rank is None:
            raise ValueError(f"Inputs {inputs.name} has undefined rank")
        if original_rank not in (2, 4):
            raise ValueError(f"Inputs {inputs.name} has unsupported rank. "
                             f"Expected 2 or 4 but got {original_rank}")
        if original_rank == 2:
            channels = tf.compat.dimension_value(inputs.shape[-1])
            if channels is None:
                raise ValueError("`C` dimension must be known but is None")
            new_shape = [-1, channels, 1, 1] if data_format == "NCHW" else [-1, 1, 1, channels]
            inputs = tf.reshape(inputs, new_shape)
        inputs_shape = inputs.shape
        params_shape = inputs_shape[-1:] if data_format == "NHWC" else inputs_shape[1:2]
        if not params_shape.is_fully_defined():
            raise ValueError(f"Inputs {inputs.name} has undefined `C` dimension {params_shape}.")
        param_initializers = param_initializers or {}
        param_regularizers = param_regularizers or {}
        beta, gamma = _scale_and_offset(center, scale, params_shape, tf.float32,
                                        param_initializers, param_regularizers,
                                        variables_collections, trainable)
        if beta is None:
            beta = tf.constant(0.0, dtype=tf.float32, shape=params_shape)
        if gamma is None:
            gamma = tf.constant(1.0, dtype=tf.float32, shape=params_shape)
        moving_mean, moving_variance = _moving_statistics(
            params_shape, tf.float32, param_initializers, variables_collections)
        epsilon = max(epsilon, _FUSED_BATCH_NORM_MIN_EPSILON)  # nn.fused_batch_norm's floor

        def training():
            return tf1.nn.fused_batch_norm(inputs, gamma, beta, epsilon=epsilon,
                                           data_format=data_format)

        def inference():
            return tf1.nn.fused_batch_norm(inputs, gamma, beta, mean=moving_mean,
                                           variance=moving_variance, epsilon=epsilon,
                                           is_training=False, data_format=data_format)

        outputs, mean, variance = _smart_cond.smart_cond(is_training, training, inference)
        is_training_value = _constant_value(is_training)
        if is_training_value is None or is_training_value:
            def updates():
                return _update_moving_statistics(moving_mean, moving_variance, mean, variance,
                                                 decay, zero_debias_moving_mean)

            if updates_collections is None:
                def force_updates():
                    with tf.control_dependencies(updates()):
                        return tf.identity(outputs)

                outputs = _smart_cond.smart_cond(is_training, force_updates, lambda: outputs)
            else:
                update_mean, update_variance = _smart_cond.smart_cond(
                    is_training, updates, lambda: (moving_mean, moving_variance))
                tf1.add_to_collections(updates_collections, update_mean)
                tf1.add_to_collections(updates_collections, update_variance)
        outputs.set_shape(inputs_shape)
        if original_shape.rank == 2:
            outputs = tf.reshape(outputs, tf.shape(original_inputs))
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)


@add_arg_scope
def batch_norm(inputs, decay=0.999, center=True, scale=False, epsilon=0.001, activation_fn=None,
               param_initializers=None, param_regularizers=None,
               updates_collections=_UPDATE_OPS, is_training=True, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               batch_weights=None, fused=None, data_format="NHWC",
               zero_debias_moving_mean=False, scope=None, renorm=False, renorm_clipping=None,
               renorm_decay=0.99, adjustment=None):
    """tf.contrib.layers.batch_norm of TF 1.15 (see the module's docstring for its paths)."""
    if fused is None:
        fused = True
    inputs = tf.convert_to_tensor(inputs)
    rank = inputs.shape.rank
    possible_to_fuse = (batch_weights is None and not renorm and rank in (2, 4)
                        and adjustment is None)
    # TF 1.15 compared updates_collections to GraphKeys.UPDATE_OPS with `is`, as here.
    if fused and possible_to_fuse and (zero_debias_moving_mean or rank == 2
                                       or updates_collections is not _UPDATE_OPS):
        return _fused_batch_norm(
            inputs, decay=decay, center=center, scale=scale, epsilon=epsilon,
            activation_fn=activation_fn, param_initializers=param_initializers,
            param_regularizers=param_regularizers, updates_collections=updates_collections,
            is_training=is_training, reuse=reuse, variables_collections=variables_collections,
            outputs_collections=outputs_collections, trainable=trainable,
            data_format=data_format, zero_debias_moving_mean=zero_debias_moving_mean,
            scope=scope)
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with _variable_scope(scope, "BatchNorm", inputs, reuse) as layer_scope:
        inputs = tf.convert_to_tensor(inputs)
        param_initializers = param_initializers or {}
        param_regularizers = param_regularizers or {}
        if (batch_weights is None and updates_collections is _UPDATE_OPS
                and not zero_debias_moving_mean):
            outputs = tf1_layers.batch_normalization(
                inputs, axis=1 if data_format == "NCHW" else -1, momentum=decay,
                epsilon=epsilon, center=center, scale=scale,
                beta_initializer=param_initializers.get("beta", tf1.zeros_initializer()),
                gamma_initializer=param_initializers.get("gamma", tf1.ones_initializer()),
                moving_mean_initializer=param_initializers.get("moving_mean",
                                                               tf1.zeros_initializer()),
                moving_variance_initializer=param_initializers.get("moving_variance",
                                                                   tf1.ones_initializer()),
                beta_regularizer=param_regularizers.get("beta"),
                gamma_regularizer=param_regularizers.get("gamma"), training=is_training,
                trainable=trainable, name=layer_scope, reuse=reuse, renorm=renorm,
                renorm_clipping=renorm_clipping, renorm_momentum=renorm_decay, fused=fused,
                adjustment=adjustment)
            if variables_collections:
                made = _layer_weights(layer_scope.name)
                for name in ("moving_mean", "moving_variance", "beta", "gamma"):
                    if name in made:
                        _add_variable_to_collections(made[name], variables_collections, name)
            if activation_fn is not None:
                outputs = activation_fn(outputs)
            return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)
        if renorm:
            raise ValueError("renorm is not supported with batch_weights, updates_collections "
                             "or zero_debias_moving_mean")
        return _legacy_batch_norm(
            inputs, decay, center, scale, epsilon, activation_fn, param_initializers,
            updates_collections, is_training, variables_collections, outputs_collections,
            trainable, batch_weights, data_format, zero_debias_moving_mean, layer_scope)


def _legacy_batch_norm(inputs, decay, center, scale, epsilon, activation_fn, param_initializers,
                       updates_collections, is_training, variables_collections,
                       outputs_collections, trainable, batch_weights, data_format,
                       zero_debias_moving_mean, layer_scope):
    """TF 1.15's non-fused batch_norm without the core layer: moments in the input's dtype."""
    inputs_shape = inputs.shape
    inputs_rank = inputs_shape.rank
    if inputs_rank is None:
        raise ValueError(f"Inputs {inputs.name} has undefined rank.")
    dtype = inputs.dtype.base_dtype
    if batch_weights is not None:
        batch_weights = tf.convert_to_tensor(batch_weights)
        inputs_shape[0:1].assert_is_compatible_with(batch_weights.shape)
        batch_weights = tf.reshape(batch_weights, [-1] + [1] * (inputs_rank - 1))
    if data_format == "NCHW":
        moments_axes = [0] + list(range(2, inputs_rank))
        params_shape = inputs_shape[1:2]
        params_shape_broadcast = [1, tf.compat.dimension_value(inputs_shape[1])] + \
            [1] * (inputs_rank - 2)
    else:
        moments_axes = list(range(inputs_rank - 1))
        params_shape = inputs_shape[-1:]
        params_shape_broadcast = None
    if not params_shape.is_fully_defined():
        raise ValueError(
            f"Inputs {inputs.name} has undefined channels dimension {params_shape}.")
    # (TF 1.15 gave this path's beta and gamma no regularizers.)
    beta, gamma = _scale_and_offset(center, scale, params_shape, dtype, param_initializers, {},
                                    variables_collections, trainable)
    moving_mean, moving_variance = _moving_statistics(params_shape, dtype, param_initializers,
                                                      variables_collections)
    is_training_value = _constant_value(is_training)
    if is_training_value is None or is_training_value:
        keep_dims = data_format == "NCHW"
        if batch_weights is None:
            mean, variance = tf1.nn.moments(inputs, moments_axes, keep_dims=keep_dims)
        else:
            mean, variance = tf1.nn.weighted_moments(inputs, moments_axes, batch_weights,
                                                     keepdims=keep_dims)
        if keep_dims:
            mean, variance = tf.reshape(mean, [-1]), tf.reshape(variance, [-1])

        def moving_vars():
            return moving_mean, moving_variance

        if updates_collections is None:
            def force_updates():
                with tf.control_dependencies(_update_moving_statistics(
                        moving_mean, moving_variance, mean, variance, decay,
                        zero_debias_moving_mean)):
                    return tf.identity(mean), tf.identity(variance)

            mean, variance = _smart_cond.smart_cond(is_training, force_updates, moving_vars)
        else:
            def delay_updates():
                return _update_moving_statistics(moving_mean, moving_variance, mean, variance,
                                                 decay, zero_debias_moving_mean)

            update_mean, update_variance = _smart_cond.smart_cond(is_training, delay_updates,
                                                                  moving_vars)
            tf1.add_to_collections(updates_collections, update_mean)
            tf1.add_to_collections(updates_collections, update_variance)
            batch = (mean, variance)
            mean, variance = _smart_cond.smart_cond(is_training, lambda: batch, moving_vars)
    else:
        mean, variance = moving_mean, moving_variance
    if data_format == "NCHW":
        mean = tf.reshape(mean, params_shape_broadcast)
        variance = tf.reshape(variance, params_shape_broadcast)
        if beta is not None:
            beta = tf.reshape(beta, params_shape_broadcast)
        if gamma is not None:
            gamma = tf.reshape(gamma, params_shape_broadcast)
    outputs = tf.nn.batch_normalization(inputs, mean, variance, beta, gamma, epsilon)
    outputs.set_shape(inputs_shape)
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return _collect_named_outputs(outputs_collections, layer_scope.name, outputs)
