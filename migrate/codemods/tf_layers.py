"""`tf.layers.*` (and `tf.compat.v1.layers.*`) -> `estimator_bridge.layers.*`."""

from migrate.codemods.registry import Codemod
from migrate.tables.layers import LAYERS, LAYERS_UNSUPPORTED

CODEMOD = Codemod(
    name="TFLayersToBridge",
    description="Replace TF1 layer functions, removed with Keras 3, by estimator_bridge.layers.",
    order=21,
    table=LAYERS,
    unsupported=LAYERS_UNSUPPORTED,
)
