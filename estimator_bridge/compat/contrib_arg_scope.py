"""`tf.contrib.framework.arg_scope` and `add_arg_scope`: tf-slim's (the maintained extraction).

Image models of 2018-2020 (UDA, Inception/ResNet, AutoAugment) declare their own layer functions
with `@add_arg_scope` and set shared keyword defaults with `with arg_scope([fn, ...], ...)`.
One scope stack serves everyone: tf-slim's layers, the networks, the bridge's `tf.layers`
helpers and user code all register here, so a scope set through any legacy path
(`tf.contrib.framework`, `tf.contrib.slim`, `tf_slim`) reaches every function.
"""

from __future__ import annotations

from estimator_bridge.compat import slim_support  # noqa: F401  (names tf-slim looks for on TF 2.21)
from tf_slim.ops.arg_scope import (add_arg_scope, arg_scope, arg_scope_func_key, arg_scoped_arguments,
                                   current_arg_scope, has_arg_scope)

__all__ = ["arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope",
           "arg_scoped_arguments", "arg_scope_func_key"]
