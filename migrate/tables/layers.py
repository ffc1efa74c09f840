"""`tf.layers.*` -> `estimator_bridge.layers.*` (Keras 3 removed tf.compat.v1.layers)."""

from migrate.tables.entries import Replacement, Unsupported

_FUNCTIONS = ("dense", "conv2d", "max_pooling2d", "average_pooling2d", "batch_normalization", "dropout", "flatten")

LAYERS = {f"tensorflow.layers.{name}": Replacement(f"estimator_bridge.layers.{name}") for name in _FUNCTIONS}

LAYERS_UNSUPPORTED = {
    "tensorflow.layers": Unsupported(
        "MIG304", "`{name}` (TF1 layers) is gone with Keras 3 and estimator_bridge.layers does not provide it",
        "use the matching tf.keras.layers class (variable names change: map them when restoring TF1 checkpoints)"),
}
