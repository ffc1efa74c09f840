"""`.weights.h5` names in the runner's TF 1.x Keras (tf-keras in graph mode): HDF5, as TF 1.x wrote them.

TF 1.x's Keras wrote and read every weights file whose name ends in `.h5` as HDF5, `x.weights.h5`
included. tf-keras sends a `.weights.h5` name to its Keras 3-style weights files
(`saving_lib.save_weights_only` / `load_weights_only`), which read variables with `.numpy()`: in the
graph mode the runner gives TF 1.x Keras programs (compat/legacy_keras.py), `save_weights` stops with
"NotImplementedError: numpy() is only available when eager execution is enabled". While no eager
execution runs, such names go to tf-keras' HDF5 weights functions instead (its `legacy` saving, the
format TF 1.x wrote); eager programs keep tf-keras' behaviour.
"""

from __future__ import annotations

KERAS3_WEIGHTS_SUFFIX = ".weights.h5"


def install() -> None:
    """Route `.weights.h5` names to HDF5 in graph mode (idempotent)."""
    import tensorflow as tf
    from tf_keras.src.saving import saving_api
    from tf_keras.src.saving.legacy import save as hdf5_saving

    if getattr(saving_api.save_weights, "_graph_mode_hdf5", False):
        return
    keras3_save, keras3_load = saving_api.save_weights, saving_api.load_weights

    def in_graph_mode_hdf5(filepath) -> bool:
        return str(filepath).endswith(KERAS3_WEIGHTS_SUFFIX) and not tf.executing_eagerly()

    def save_weights(model, filepath, overwrite=True, **kwargs):
        if in_graph_mode_hdf5(filepath):
            return hdf5_saving.save_weights(model, str(filepath), overwrite=overwrite, save_format="h5",
                                            options=kwargs.get("options"))
        return keras3_save(model, filepath, overwrite=overwrite, **kwargs)

    def load_weights(model, filepath, skip_mismatch=False, **kwargs):
        if in_graph_mode_hdf5(filepath):
            return hdf5_saving.load_weights(model, str(filepath), skip_mismatch=skip_mismatch, **kwargs)
        return keras3_load(model, filepath, skip_mismatch=skip_mismatch, **kwargs)

    save_weights._graph_mode_hdf5 = True
    saving_api.save_weights, saving_api.load_weights = save_weights, load_weights
