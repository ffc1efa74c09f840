"""tf.contrib.framework's variable functions (and slim's): tf-slim's.

Hand-written normalisation layers of 2018-2020 TPU programs create their parameters with
`contrib.framework.variable` / `model_variable` rather than `tf.get_variable` (tensorflow/tpu's
AmoebaNet network_utils.py's `batch_norm`), and TF-Slim exported the same functions. tf-slim's
create through `tf.compat.v1.get_variable`, so the bridge's variable cache names and restores
them; `assign_from_checkpoint_fn`'s restore runs in the hooks' BridgeSession under the bridge
(runtime/hook_session.py: AmoebaNet's LoadEMAHook).
"""

from __future__ import annotations

from estimator_bridge.compat import slim_support  # noqa: F401  (names tf-slim looks for on TF 2.21)
from tf_slim.ops.variables import (add_model_variable, assign_from_checkpoint_fn, global_variable,
                                   local_variable, model_variable, variable)

__all__ = ["variable", "model_variable", "local_variable", "global_variable", "add_model_variable",
           "assign_from_checkpoint_fn"]
