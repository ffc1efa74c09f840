"""`tf.contrib.layers.batch_norm`: tf-slim's, with TF 1.15's three paths and `BatchNorm/` names.

Its default path builds TF1's BatchNormalization layer, which TF 2.21 loads from a module path
tf-keras 2.21 ships under another name; `slim_support` serves that path.
"""

from __future__ import annotations

from estimator_bridge.compat import slim_support  # noqa: F401  (the module path batch_norm needs)
from tf_slim.layers.layers import batch_norm

__all__ = ["batch_norm"]
