"""`tf.layers.*` (and `tf.compat.v1.layers.*`) -> `estimator_bridge.layers.*`."""

from migrate.codemods.base import TableRewrite
from migrate.tables.layers import LAYERS


class TFLayersToBridge(TableRewrite):
    DESCRIPTION = "Replace TF1 layer functions, removed with Keras 3, by estimator_bridge.layers."
    TABLE = LAYERS
