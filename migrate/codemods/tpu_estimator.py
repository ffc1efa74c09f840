"""TPUEstimator, Estimator and their specs, configs, hooks and export -> estimator_bridge."""

from migrate.codemods.registry import Codemod
from migrate.tables.estimator import ESTIMATOR, ESTIMATOR_UNSUPPORTED

CODEMOD = Codemod(
    name="TPUEstimatorToBridge",
    description="Point tf.contrib.tpu / tf.estimator(.tpu) estimator code at estimator_bridge.",
    order=20,
    table=ESTIMATOR,
    unsupported=ESTIMATOR_UNSUPPORTED,
)
