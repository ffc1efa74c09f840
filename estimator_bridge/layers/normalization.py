"""`batch_normalization`: TF 1.15's layer (fused for 4-D inputs, moving averages in UPDATE_OPS)."""

from __future__ import annotations

import tensorflow as tf
from tensorflow.python.framework import smart_cond as _smart_cond  # the helper TF1 layers used

from estimator_bridge.layers.base import (layer_scope, as_input_tensor, get_weight, add_updates,
                                          keras_arguments, calling_object)

tf1 = tf.compat.v1


# TF 1.15's fused batch norm raised any smaller epsilon to this (nn_impl.fused_batch_norm);
# TF 2.x's tf.compat.v1.nn.fused_batch_norm no longer does, so the layer clamps it itself.
_FUSED_BATCH_NORM_MIN_EPSILON = 1.001e-5


@keras_arguments
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
    inputs = as_input_tensor(inputs, "batch_normalization")
    with layer_scope(name, "batch_normalization", reuse) as scope:
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
            gamma = get_weight("gamma", param_shape, param_dtype, gamma_initializer,
                                gamma_regularizer, trainable, gamma_constraint)
        if center:
            beta = get_weight("beta", param_shape, param_dtype, beta_initializer,
                               beta_regularizer, trainable, beta_constraint)
        # TF1 created the moving statistics without the scope's partitioner.
        current = tf1.get_variable_scope()
        partitioner = current.partitioner
        current.set_partitioner(None)
        try:
            moving_mean, moving_variance = (
                get_weight(stat_name, param_shape, param_dtype, initializer, trainable=False,
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
        add_updates(updates)
    return outputs


def tf115_moments(inputs, reduction_axes, keep_dims):
    """TF 1.15's `BatchNormalization._moments`: the batch mean and (biased) variance.

    A `tf.layers.BatchNormalization` subclass may override `_moments` (e.g. to average them
    across TPU replicas); the non-fused path below then calls the override, which may call this
    through `super()`.
    """
    return tf.nn.moments(inputs, reduction_axes, keepdims=keep_dims)


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
            owner = calling_object.get()
            moments = owner.moments if owner is not None and owner.moments else tf115_moments
            batch_mean, batch_variance = moments(
                tf.cast(inputs, param_dtype), reduction_axes, keep_dims=keep_dims)
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
