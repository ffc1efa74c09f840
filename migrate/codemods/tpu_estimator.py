"""TPUEstimator, Estimator and their specs, configs, hooks and export -> estimator_bridge."""

from migrate.codemods.base import TableRewrite
from migrate.tables.estimator import ESTIMATOR


class TPUEstimatorToBridge(TableRewrite):
    DESCRIPTION = "Point tf.contrib.tpu / tf.estimator(.tpu) estimator code at estimator_bridge."
    TABLE = ESTIMATOR
