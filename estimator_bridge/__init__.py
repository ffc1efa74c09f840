"""estimator_bridge: TPUEstimator semantics for unchanged TF1 model_fn/input_fn on TF2 tf.distribute."""

from estimator_bridge import layers

__version__ = "0.1.0"
