"""tf.contrib.framework's variable functions: TF 1.15's code (contrib/framework/python/ops/variables.py).

Hand-written normalisation layers of 2018-2020 TPU programs create their parameters with
`contrib.framework.variable` / `model_variable` rather than `tf.get_variable` (beta/gamma in
MODEL_VARIABLES, moving statistics in MOVING_AVERAGE_VARIABLES), and TF-Slim exported the same functions (`slim.variable`, `slim.model_variable`). TF 2 has neither. These keep
TF 1.15's signatures, defaults and collections (`variable` de-duplicates its collections,
`model_variable` always adds GLOBAL_VARIABLES and MODEL_VARIABLES), and are `add_arg_scope`-decorated
as there, so `arg_scope([variable], device=...)` applies. They create through
`tf.compat.v1.get_variable`, so the bridge's variable cache names and restores them as TF 1.15 did.

`assign_from_checkpoint_fn` is TF 1.15's too: a Saver over `var_list` and a function that restores it
into the session it is given. An evaluation hook may build it in `begin()` from
`ExponentialMovingAverage.variables_to_restore()` and call it in `after_create_session`; under the
bridge that session is the hooks' BridgeSession, whose hook methods restore a Saver's map into the
model's variables (runtime/hook_session.py).
"""

from __future__ import annotations

import functools
import logging

import tensorflow as tf

from estimator_bridge.compat.contrib_arg_scope import add_arg_scope

tf1 = tf.compat.v1
logger = logging.getLogger("estimator_bridge")

__all__ = ["variable", "model_variable", "local_variable", "global_variable", "add_model_variable",
           "assign_from_checkpoint_fn"]

_AUTO = tf.VariableSynchronization.AUTO
_NONE = tf.VariableAggregation.NONE


def local_variable(initial_value, validate_shape=True, name=None, use_resource=None):
    """A variable with a value in LOCAL_VARIABLES, not trainable."""
    return tf1.Variable(initial_value, trainable=False, collections=[tf1.GraphKeys.LOCAL_VARIABLES],
                        validate_shape=validate_shape, use_resource=use_resource, name=name)


def global_variable(initial_value, validate_shape=True, name=None, use_resource=None):
    """A variable with a value in GLOBAL_VARIABLES, not trainable."""
    return tf1.Variable(initial_value, trainable=False, collections=[tf1.GraphKeys.GLOBAL_VARIABLES],
                        validate_shape=validate_shape, use_resource=use_resource, name=name)


@add_arg_scope
def variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=True,
             collections=None, caching_device=None, device=None, partitioner=None, custom_getter=None,
             use_resource=None, synchronization=_AUTO, aggregation=_NONE):
    """`tf.compat.v1.get_variable` with TF 1.15 contrib's defaults: collections default to
    GLOBAL_VARIABLES (duplicates removed), an optional device and custom_getter."""
    collections = list(collections if collections is not None else [tf1.GraphKeys.GLOBAL_VARIABLES])
    collections = list(set(collections))
    getter = tf1.get_variable
    if custom_getter is not None:
        getter = functools.partial(custom_getter, reuse=tf1.get_variable_scope().reuse)
    with tf1.device(device or ""):
        return getter(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                      trainable=trainable, collections=collections, caching_device=caching_device,
                      partitioner=partitioner, use_resource=use_resource, synchronization=synchronization,
                      aggregation=aggregation)


@add_arg_scope
def model_variable(name, shape=None, dtype=tf.float32, initializer=None, regularizer=None, trainable=True,
                   collections=None, caching_device=None, device=None, partitioner=None, custom_getter=None,
                   use_resource=None, synchronization=_AUTO, aggregation=_NONE):
    """`variable` that is always in GLOBAL_VARIABLES and MODEL_VARIABLES (plus `collections`)."""
    collections = list(collections or [])
    collections += [tf1.GraphKeys.GLOBAL_VARIABLES, tf1.GraphKeys.MODEL_VARIABLES]
    return variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                    trainable=trainable, collections=collections, caching_device=caching_device,
                    device=device, partitioner=partitioner, custom_getter=custom_getter,
                    use_resource=use_resource, synchronization=synchronization, aggregation=aggregation)


def add_model_variable(var):
    """Adds `var` to MODEL_VARIABLES once."""
    if var not in tf1.get_collection(tf1.GraphKeys.MODEL_VARIABLES):
        tf1.add_to_collection(tf1.GraphKeys.MODEL_VARIABLES, var)


def assign_from_checkpoint_fn(model_path, var_list, ignore_missing_vars=False, reshape_variables=False):
    """A function of a session that restores `var_list` (variables, or {checkpoint name: variable})
    from `model_path`; None when ignore_missing_vars leaves nothing to restore.

    Raises:
      ValueError: `var_list` is empty.
    """
    if not var_list:
        raise ValueError("var_list cannot be empty")
    if ignore_missing_vars:
        reader = tf1.train.NewCheckpointReader(model_path)
        var_dict = var_list if isinstance(var_list, dict) else {var.op.name: var for var in var_list}
        available_vars = {}
        for var in var_dict:
            if reader.has_tensor(var):
                available_vars[var] = var_dict[var]
            else:
                logger.warning("Variable %s missing in checkpoint %s", var, model_path)
        var_list = available_vars
    if not var_list:
        logger.warning("No Variables to restore")
        return None
    saver = tf1.train.Saver(var_list, reshape=reshape_variables)

    def callback(session):
        saver.restore(session, model_path)

    return callback
