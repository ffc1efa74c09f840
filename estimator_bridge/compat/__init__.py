"""A TF1-shaped `tensorflow` for unchanged TF 1.x-era scripts, served by estimator_bridge.

Four ways in:
  * `python -m estimator_bridge.run SCRIPT ARGS...` runs a script whose `import tensorflow as
    tf` then sees TF 1.15's shape: `tf.contrib.tpu.TPUEstimator`, `tf.estimator.*`,
    `tf.layers.*`, `tf.train.AdamOptimizer`, `tf.logging`, `tf.flags`, `tf.app.run`, ...;
  * `with estimator_bridge.compat.installed(): ...` does the same in process;
  * `tf1_namespace()`, or `import estimator_bridge.compat.v1 as tf`, give the namespace directly;
  * `import estimator_bridge.compat as tf` works too: any name this package does not define
    itself (`installed`, `tf1_namespace`, its submodules) is looked up in the namespace.

In a process that runs legacy code, also call `apply_tf1_behavior()` (v1 TensorShape with
`.value`, identity-based Tensor equality; the runner does), and `keras_for_program(sources)` for
the runner's Keras (tf-keras in the program's era's mode; TF_USE_LEGACY_KERAS=1 set before
TensorFlow loads): importing this package changes no global TensorFlow state.

What it holds is data (`namespace_table.py`); `namespace.py` builds the modules, `imports.py`
serves them to legacy importers, `contrib_helpers.py` implements the few tf.contrib helpers with
no TF2 equivalent.
"""

from estimator_bridge.compat.behavior import apply_tf1_behavior
from estimator_bridge.compat.imports import installed
from estimator_bridge.compat.legacy_keras import keras_for_program
from estimator_bridge.compat.namespace import (
    AliasModule,
    MissingBridgeSymbol,
    UnsupportedName,
    tf1_namespace,
)

__all__ = ["AliasModule", "MissingBridgeSymbol", "UnsupportedName", "apply_tf1_behavior",
           "installed", "keras_for_program", "tf1_namespace"]


def __getattr__(name):
    # PEP 562: only called for names this package lacks, so `tf.contrib`, `tf.layers`,
    # `tf.train` ... of `import estimator_bridge.compat as tf` come from the TF1 namespace.
    return getattr(tf1_namespace(), name)


def __dir__():
    return sorted(set(globals()) | set(dir(tf1_namespace())))
