"""`tf.layers.*` -> `estimator_bridge.layers.*` (Keras 3 removed tf.compat.v1.layers).

Every function and layer class estimator_bridge.layers rebuilds with TF 1.15's names and numbers;
the rest of tf.layers (`separable_conv1d`, ...) is MIG304. The compat runner serves the same list
(estimator_bridge/compat/namespace_table.LAYER_FUNCTIONS is derived from it).
"""

from migrate.tables.entries import Replacement, Unsupported

_FUNCTIONS = (
    "dense", "dropout", "flatten", "batch_normalization",
    "conv1d", "conv2d", "conv3d", "separable_conv2d", "conv2d_transpose", "conv3d_transpose",
    "max_pooling1d", "max_pooling2d", "max_pooling3d", "average_pooling1d", "average_pooling2d", "average_pooling3d",
)
_CLASSES = (
    "Dense", "Dropout", "Flatten", "BatchNormalization",
    "Conv1D", "Conv2D", "Conv3D", "SeparableConv2D", "Conv2DTranspose",
    "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D", "AveragePooling2D", "AveragePooling3D",
    "Layer", "InputSpec",
)

LAYERS = {f"tensorflow.layers.{name}": Replacement(f"estimator_bridge.layers.{name}") for name in _FUNCTIONS + _CLASSES}

LAYERS_UNSUPPORTED = {
    "tensorflow.layers": Unsupported(
        "MIG304", "`{name}` (TF1 layers) is gone with Keras 3 and estimator_bridge.layers does not provide it",
        "use the matching tf.keras.layers class (variable names change: map them when restoring TF1 checkpoints)"),
}
