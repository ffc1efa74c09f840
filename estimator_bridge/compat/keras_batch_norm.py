"""Keras 2's moving variance in Keras 3's `BatchNormalization`.

TF 1.x's and TF 2.x's Keras (up to 2.15) normalised 4-D inputs (and 5-D ones in TF 2.x) with the
fused kernel when the channel axis allowed it (axis 1 or 3; 1 or 4 for 5-D; no renorm, no virtual
batch, no adjustment), and that kernel hands back the *Bessel-corrected* batch variance, var *
n / (n - 1) with n the number of values per channel in the batch (per replica), which is what the
moving variance averages in. The normalisation itself uses the biased variance, and non-fused
inputs (2-D, Dense layers) use the biased one for both. Keras 3 always averages the biased
variance in. Measured: one step, momentum 0, a batch of 4 x 2 x 2 x 3: TF 1.15 and TF 2.15 store
0.0567 (the unbiased variance) where Keras 3 stores 0.0531; on 2-D inputs all three store the
biased 0.0050. So after training, everything that reads the moving statistics (evaluate,
predict, validation) differed from the original, the more the fewer values per channel (small
feature maps, small per-core batches).

`BatchNormalization` here is Keras 3's layer as Keras 2 ran it, what estimator-migrate writes for
Keras 2's (the compat runner's programs get Keras 2 itself, tf-keras). On the TensorFlow backend
the inputs Keras 2 fused go through the same kernel (`tf.compat.v1.nn.fused_batch_norm`, moving
averages updated by the kernel as Keras 2 did), so outputs and gradients round as the original's:
Keras 3's own arithmetic differs in the last bits, enough to put a value near zero on the other
side of a ReLU and change a gradient by far more. Elsewhere (other backends, float16 inputs,
synchronized layers, TPU-replicated steps) the
correction is added after Keras 3's update: moving_variance += (1 - momentum) * variance / (n - 1).

Keras 2's `fused=` argument (Keras 3 has none: TypeError) is taken here and decided at run time:
`fused=False` ran Keras 2's non-fused moments path, whose moving variance averages the *biased* batch
variance, which is Keras 3's own layer unchanged (TF 1.15 oracle:
tests/migrate/test_keras_batch_norm_fused.py); `fused=True` and `fused=None` are Keras 2's default
(TF 1.x's Keras used the kernel where it could with either, and fell back silently elsewhere).
"""

from __future__ import annotations

import functools

import keras


def _fused_in_keras_2(layer, inputs) -> bool:
    """Whether Keras 2 (TF 2.x) ran this layer on these inputs with the fused kernel."""
    rank = len(inputs.shape)
    if rank not in (4, 5) or layer.renorm or getattr(layer, "fused", None) is False:
        return False
    axis = layer.axis % rank if isinstance(layer.axis, int) else None
    return axis in ((1, 3) if rank == 4 else (1, 4))


# the fused kernel's data format by (rank, channel axis)
FUSED_DATA_FORMATS = {(4, 3): "NHWC", (4, 1): "NCHW", (5, 4): "NDHWC", (5, 1): "NCDHW"}


def _in_xla_context() -> bool:
    """Inside a TPU-replicated (XLA) computation, where Keras 2 did not average in the kernel: the
    Keras 3 path with the correction below serves it."""
    import tensorflow as tf
    from tensorflow.python.ops import control_flow_util

    graph = tf.compat.v1.get_default_graph()
    while graph is not None:
        if control_flow_util.GetContainingXLAContext(graph._get_control_flow_context()) is not None:
            return True
        graph = getattr(graph, "outer_graph", None)
    return False


def _own_moments(layer) -> bool:
    """A subclass computing its own batch moments (cross-replica ones, as tensorflow/tpu's
    TpuBatchNormalization does): Keras 2 ran those unfused, and the kernel would skip them."""
    return "_moments" in vars(layer) or type(layer)._moments is not keras.layers.BatchNormalization._moments


def _runs_fused_kernel(layer, inputs, training) -> bool:
    """Whether this call runs Keras 2's fused kernel here (TensorFlow backend, float32, a Python `training`)."""
    return (keras.backend.backend() == "tensorflow" and isinstance(training, (bool, type(None)))
            and not _in_xla_context() and not _own_moments(layer)
            and not getattr(layer, "synchronized", False) and keras.backend.standardize_dtype(inputs.dtype) == "float32"
            and keras.backend.standardize_dtype(layer.moving_mean.dtype) == "float32"
            and _fused_in_keras_2(layer, inputs))


def _fused_kernel_call(layer, inputs, training: bool):
    """Keras 2's `_fused_batch_norm` (TF 2.x): the kernel normalises and, training, updates the moving averages."""
    import tensorflow as tf

    rank = len(inputs.shape)
    data_format = FUSED_DATA_FORMATS[(rank, layer.axis % rank)]
    channels = layer.moving_mean.shape
    gamma = layer.gamma if layer.scale else tf.ones(channels, tf.float32)
    beta = layer.beta if layer.center else tf.zeros(channels, tf.float32)
    moving_mean, moving_variance = tf.convert_to_tensor(layer.moving_mean), tf.convert_to_tensor(layer.moving_variance)
    if not training:
        outputs, _, _ = tf.compat.v1.nn.fused_batch_norm(
            inputs, gamma, beta, mean=moving_mean, variance=moving_variance, epsilon=layer.epsilon,
            is_training=False, data_format=data_format)
        return outputs
    outputs, mean, variance = tf.compat.v1.nn.fused_batch_norm(
        inputs, gamma, beta, mean=moving_mean, variance=moving_variance, epsilon=layer.epsilon, is_training=True,
        data_format=data_format, exponential_avg_factor=1.0 - layer.momentum)
    layer.moving_mean.assign(mean)
    layer.moving_variance.assign(variance)
    return outputs


def _keras2_call(call):
    @functools.wraps(call)
    def keras2_call(self, inputs, training=None, mask=None):
        if mask is None and _runs_fused_kernel(self, inputs, training):
            return _fused_kernel_call(self, inputs, bool(training and self.trainable))
        if not (training and self.trainable and mask is None and _fused_in_keras_2(self, inputs)):
            return call(self, inputs, training=training, mask=mask)
        captured = {}
        moments = self._moments

        def capturing(inputs_, mask_):
            mean, variance = moments(inputs_, mask_)
            captured["variance"] = variance
            return mean, variance

        self._moments = capturing
        try:
            outputs = call(self, inputs, training=training, mask=mask)
        finally:
            del self._moments
        variance = captured["variance"]
        ops = keras.ops
        shape = ops.shape(inputs)
        count = 1
        for index in range(len(inputs.shape)):
            if index != self.axis % len(inputs.shape):
                count = count * ops.cast(shape[index], variance.dtype)
        correction = variance * (1.0 - self.momentum) / ops.maximum(count - 1.0, 1.0)
        self.moving_variance.assign_add(ops.cast(correction, self.moving_variance.dtype))
        return outputs

    keras2_call._estimator_bridge = True
    return keras2_call


@keras.saving.register_keras_serializable(package="estimator_bridge")
class BatchNormalization(keras.layers.BatchNormalization):
    """Keras 3's BatchNormalization whose moving variance averages Keras 2's (fused) batch variance;
    `fused=False` is Keras 2's non-fused layer (Keras 3's own arithmetic)."""

    def __init__(self, *args, fused=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fused = fused

    def get_config(self):
        config = super().get_config()
        if self.fused is not None:
            config["fused"] = self.fused
        return config


BatchNormalization.call = _keras2_call(vars(keras.layers.BatchNormalization)["call"])
