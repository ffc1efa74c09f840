"""`tf.contrib.layers.batch_norm`: tf-slim's, with TF 1.15's three paths and `BatchNorm/` names.

`slim_support` runs its default path on the bridge's `tf.layers.BatchNormalization` and keeps
the moving statistics per replica on several replicas.
"""

from __future__ import annotations

from estimator_bridge.compat import slim_support  # noqa: F401  (the module path batch_norm needs)
from tf_slim.layers.layers import batch_norm

__all__ = ["batch_norm"]
