"""What TF 1.x's KerasTPUModel did beyond Keras, for code migrated from `keras_to_tpu_model`.

estimator-migrate turns `tpu_model = keras_to_tpu_model(model, strategy=...)` into a clone of
`model` compiled in `tf.distribute.TPUStrategy.scope()` (migrate/codemods/keras_tpu.py). The 2018
colabs then called `tpu_model.sync_to_cpu()` to get a CPU model for plotting, saving or predicting
(tensorflow/tpu tools/colab/fashion_mnist.ipynb: `cpu_model = tpu_model.sync_to_cpu()`). A Keras 3
model has no such method (AttributeError); `sync_to_cpu(tpu_model, model)` is what the codemod
writes instead.
"""

from __future__ import annotations

import logging

logger = logging.getLogger("estimator_bridge")


def sync_to_cpu(tpu_model, cpu_model):
    """TF 1.15's `KerasTPUModel.sync_to_cpu()`: the CPU model given to keras_to_tpu_model, with the TPU model's weights.

    As in TF 1.15 (contrib/tpu/python/tpu/keras_support.py), the returned object is the original
    model itself (not a copy), its weights set to the TPU model's. TF 1.15's `tpu_model.compile(...)`
    also compiled the CPU model (with a copy of the optimizer), so a CPU model that is not compiled
    here (the colabs converted first and compiled the TPU model after) is compiled from the TPU
    model's compile configuration, outside the strategy. Of the optimizer's settings
    only those the CPU optimizer holds in a variable are copied (TF 1.15 copied the variables of
    the config and logged the rest as "Cannot update non-variable config"); in Keras 3 that is
    the learning rate (a LearningRateScheduler changes the TPU model's). Optimizer slots stay
    where they are, as in TF 1.15.
    """
    cpu_model.set_weights(tpu_model.get_weights())
    if not getattr(cpu_model, "compiled", False) and getattr(tpu_model, "compiled", False):
        try:
            cpu_model.compile_from_config(tpu_model.get_compile_config())
        except Exception as error:  # noqa: BLE001 - the weights are synced; say why it is not compiled
            logger.warning("sync_to_cpu: the CPU model is left uncompiled (TF 1.15 compiled it with the TPU "
                           "model): Keras 3 could not rebuild the TPU model's compile arguments: %s. Compile "
                           "it by hand before evaluate/fit; custom losses or metrics must be registered "
                           "(@keras.saving.register_keras_serializable()).", error)
    cpu_optimizer = getattr(cpu_model, "optimizer", None)
    tpu_optimizer = getattr(tpu_model, "optimizer", None)
    if cpu_optimizer is not None and tpu_optimizer is not None and cpu_optimizer is not tpu_optimizer:
        variable = getattr(cpu_optimizer, "_learning_rate", None)
        source = getattr(tpu_optimizer, "_learning_rate", None)
        if hasattr(variable, "assign") and hasattr(source, "numpy"):
            variable.assign(source.numpy())
    return cpu_model
