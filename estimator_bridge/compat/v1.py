"""`import estimator_bridge.compat.v1 as tf`: the TF1-shaped namespace as an importable module.

For running legacy code in process "with only the imports swapped": every attribute of this
module is the attribute of the same name of `tf1_namespace()` (`tf.contrib.tpu.TPUEstimator`,
`tf.layers.dense`, `tf.train.AdamOptimizer`, `tf.estimator.ModeKeys`, ...).
"""

from estimator_bridge.compat.namespace import tf1_namespace as _tf1_namespace


def __getattr__(name):
    return getattr(_tf1_namespace(), name)


def __dir__():
    return dir(_tf1_namespace())
