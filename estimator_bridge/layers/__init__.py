"""TF1 `tf.layers` functions (removed with Keras 3), rebuilt on `tf.compat.v1.get_variable`.

Keras 3 turned `tf.compat.v1.layers` into a stub (``AttributeError: `dense` is not available with
Keras 3``). Legacy `model_fn`s call `tf.layers.dense`, `conv2d`, `batch_normalization`, ... and
rely on three things besides the arithmetic: TF1 variable names (`dense/kernel`, `dense_1/bias`,
`batch_normalization/moving_mean`, which checkpoints and warm starts are keyed by), the
`UPDATE_OPS` collection holding batch-norm moving-average updates, and regularization losses in
`REGULARIZATION_LOSSES`. These functions reproduce TF 1.15's `tf.layers` on all three:

* Naming is TF 1.15's own mechanism: each call opens
  `tf.compat.v1.variable_scope(name)` (or `variable_scope(None, default_name="dense")` when no
  name is given), so uniquification (`dense`, `dense_1`), `reuse=`, enclosing scopes and re-entered
  scopes behave as in TF1. The counters live in the graph's variable-scope store, hence restart per
  `tf.Graph`; inside `tf.function` they restart per trace when the trace has fresh v1 collections
  (the bridge's variable cache provides them, see docs/architecture.md).
* Every variable comes from `tf.compat.v1.get_variable`, so the bridge's name-keyed variable
  cache (a `tf.variable_creator_scope`) sees each request under its TF1 name.
* The arithmetic uses the same TF ops, in the same order, as TF 1.15's Keras-1 layer code
  (`MatMul` + `BiasAdd`, `FusedBatchNormV3` for 4-D batch norm, TF1's dropout formula), so results
  match TF 1.15 (tests/estimator_bridge/test_layers_numerics.py compares against the oracle).

Arguments are read as TF 1.15's Keras-1 layers read them: activations, initializers, regularizers
and constraints also by name or config dict (`activation="relu"`, `kernel_initializer="he_normal"`,
`kernel_regularizer="l2"`, `kernel_constraint="max_norm"`; `estimator_bridge.layer_arguments`),
and the object forms have TF 1.15's constructor signatures.

Provided: `dense`, `conv1d`, `conv2d`, `conv3d`, `separable_conv2d`, `conv2d_transpose`,
`conv3d_transpose`,
`max_pooling1d/2d/3d`, `average_pooling1d/2d/3d`, `dropout`, `flatten`, `batch_normalization`,
`layer_norm` (TF 1.15's `tf.contrib.layers.layer_norm`, the target `estimator-migrate` rewrites it
to), and their object forms (`Dense`, `Conv2D`, `BatchNormalization`, ...: one object shares its variables
across calls). Not provided: batch-norm `renorm`, `virtual_batch_size` and `adjustment` (explicit
NotImplementedError), `separable_conv1d`. `Layer` and `InputSpec`: TF 1.15's
base for user-defined layers (`custom`: build/call/add_weight in the layer's variable scope).

Modules: `base` (scopes, weights, argument checks), `core` (dense, dropout, flatten, layer_norm),
`convolution`, `pooling`, `normalization` (batch_normalization), `objects` (the object forms),
`custom` (the `Layer` base for user-defined layers).
"""

from estimator_bridge.layers.convolution import (conv1d, conv2d, conv2d_transpose, conv3d,
                                                 conv3d_transpose, separable_conv2d)
from estimator_bridge.layers.core import dense, dropout, flatten, layer_norm
from estimator_bridge.layers.custom import InputSpec, Layer
from estimator_bridge.layers.normalization import batch_normalization
from estimator_bridge.layers.objects import (AveragePooling1D, AveragePooling2D, AveragePooling3D,
                                             BatchNormalization, Conv1D, Conv2D, Conv2DTranspose,
                                             Conv3D, Dense, Dropout, Flatten, MaxPooling1D,
                                             MaxPooling2D, MaxPooling3D, SeparableConv2D)
from estimator_bridge.layers.pooling import (average_pooling1d, average_pooling2d,
                                             average_pooling3d, max_pooling1d, max_pooling2d,
                                             max_pooling3d)

__all__ = [
    "InputSpec",
    "Layer",
    "AveragePooling1D",
    "AveragePooling2D",
    "BatchNormalization",
    "Conv1D",
    "Conv2D",
    "Conv2DTranspose",
    "Dense",
    "Dropout",
    "Flatten",
    "MaxPooling1D",
    "MaxPooling2D",
    "AveragePooling3D",
    "Conv3D",
    "MaxPooling3D",
    "SeparableConv2D",
    "average_pooling1d",
    "average_pooling2d",
    "average_pooling3d",
    "conv3d",
    "conv3d_transpose",
    "max_pooling3d",
    "separable_conv2d",
    "batch_normalization",
    "conv1d",
    "conv2d",
    "conv2d_transpose",
    "dense",
    "dropout",
    "flatten",
    "layer_norm",
    "max_pooling1d",
    "max_pooling2d",
]

# Reprs, pickles and error messages name the public path (`estimator_bridge.layers.Dense`), as
# they did when the package was one module.
for _name in __all__:
    globals()[_name].__module__ = __name__
del _name
