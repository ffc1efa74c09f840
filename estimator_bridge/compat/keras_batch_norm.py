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

`BatchNormalization` here is Keras 3's layer with that update, what estimator-migrate writes for
Keras 2's (the compat runner's programs get Keras 2 itself, tf-keras). The correction is added
after Keras 3's update: moving_variance += (1 - momentum) * variance / (n - 1).
"""

from __future__ import annotations

import functools

import keras


def _fused_in_keras_2(layer, inputs) -> bool:
    """Whether Keras 2 (TF 2.x) ran this layer on these inputs with the fused kernel."""
    rank = len(inputs.shape)
    if rank not in (4, 5) or layer.renorm:
        return False
    axis = layer.axis % rank if isinstance(layer.axis, int) else None
    return axis in ((1, 3) if rank == 4 else (1, 4))


def _keras2_call(call):
    @functools.wraps(call)
    def keras2_call(self, inputs, training=None, mask=None):
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
    """Keras 3's BatchNormalization whose moving variance averages Keras 2's (fused) batch variance."""


BatchNormalization.call = _keras2_call(vars(keras.layers.BatchNormalization)["call"])
