"""The codemods, one per file; `PIPELINE` is the order the engine runs them in.

Structural rewrites run before renames (they match the TF1 spelling); TF1NamesToCompatV1 runs
last so that it only sees names no other codemod claimed.
"""

from migrate.codemods.cluster_resolvers import ClusterResolversToDistribute
from migrate.codemods.contrib_data import ContribDataApplyToMethods
from migrate.codemods.contrib_helpers import ContribHelpersToCurrent
from migrate.codemods.dimension_value import DimensionValueToCompat
from migrate.codemods.eager_for_bridge import EagerForBridge
from migrate.codemods.keras_arguments import KerasArgumentSpellings
from migrate.codemods.keras_methods import KerasRemovedMethods
from migrate.codemods.keras_optimizers import KerasCompileOptimizers
from migrate.codemods.keras_tpu import KerasToTPUStrategy
from migrate.codemods.summary_cadence import SummaryCadenceToRecordIf
from migrate.codemods.tf1_names import TF1NamesToCompatV1
from migrate.codemods.tf_layers import TFLayersToBridge
from migrate.codemods.tpu_estimator import TPUEstimatorToBridge

PIPELINE = (
    ContribDataApplyToMethods,
    SummaryCadenceToRecordIf,
    KerasToTPUStrategy,
    KerasCompileOptimizers,
    KerasRemovedMethods,
    TPUEstimatorToBridge,
    TFLayersToBridge,
    ClusterResolversToDistribute,
    ContribHelpersToCurrent,
    KerasArgumentSpellings,
    EagerForBridge,
    DimensionValueToCompat,
    TF1NamesToCompatV1,
)
