"""What tf-slim 1.1.0 needs to run on TF 2.21 as TF 1.15's contrib ran: served narrowly, not copied.

TF-Slim's layers, batch norm, arg_scope, variables, training and networks come from the tf-slim
package (pinned in pyproject.toml); `import estimator_bridge` calls `install()`, which changes
nothing outside tf-slim's own modules.

tf-slim 1.1.0 also reaches TensorFlow functions and classes through the internal modules that held
them before TF 2.14 moved them (`ops.IndexedSlices` in slim's gradient clipping, `control_flow_ops.cond`
behind `is_training` tensors, `variable_scope.variable` in `local_variable`, ...). tf-slim's own
modules get views of those TF modules with the old names added (`MOVED_NAMES`, bound to TF's own
objects at their new places); TensorFlow's modules stay as they are for everyone else.

On several replicas (MirroredStrategy, TPU cores) `batch_norm`'s fused and legacy paths assign the
moving statistics inside the replica function, the in-place path (`updates_collections=None`)
under `tf.cond`. A mirrored variable can only be assigned there through a cross-replica merge,
which `tf.cond` forbids. `tf_slim.layers.layers` gets two more views: `variables`, whose
`model_variable` makes `moving_mean`/`moving_variance` per-replica (ON_READ, averaged when read
and saved, as TF's own BatchNormalization layer and the bridge's `tf.layers.batch_normalization`
make them), and `moving_averages`, whose `assign_moving_average` updates the replica's own copy
(`v -= (v - value) * (1 - decay)`, TF's formula) instead of merging across replicas.

`batch_norm`'s core path builds `tensorflow.python.layers.normalization.BatchNormalization`,
TF 1.15's `tf.layers.BatchNormalization`. TF 2.21 loads it from `tf_keras.legacy_tf_layers`, a path
tf-keras 2.21 ships only under `src` (every slim network with batch norm stopped at "No module
named 'tf_keras.legacy_tf_layers'"), and it is tf-keras's Keras-2 layer there (moving statistics
updated inside the fused kernel; trained gamma and beta move by rounding). Slim's layers module
gets a view of `normalization` whose `BatchNormalization` is the bridge's `tf.layers` one
(`estimator_bridge.layers`, held to TF 1.15 by its oracle tests).
"""

from __future__ import annotations

import functools
import importlib
import sys
import types

import tensorflow as tf

from estimator_bridge.layers.normalization import batch_normalization


# (module tf-slim reads, name) -> (module TF 2.21 keeps the object in, its name there)
_OPS = "tensorflow.python.ops."
MOVED_NAMES = {
    ("tensorflow.python.framework.ops", "Tensor"): ("tensorflow.python.framework.tensor", "Tensor"),
    ("tensorflow.python.framework.ops", "IndexedSlices"): ("tensorflow.python.framework.indexed_slices",
                                                           "IndexedSlices"),
    (_OPS + "control_flow_ops", "cond"): (_OPS + "cond", "cond"),
    (_OPS + "control_flow_ops", "case"): (_OPS + "control_flow_case", "case"),
    (_OPS + "control_flow_ops", "Assert"): (_OPS + "control_flow_assert", "Assert"),
    (_OPS + "control_flow_ops", "while_loop"): (_OPS + "while_loop", "while_loop"),
    (_OPS + "array_ops", "stack"): (_OPS + "array_ops_stack", "stack"),
    (_OPS + "array_ops", "unstack"): (_OPS + "array_ops_stack", "unstack"),
    (_OPS + "variable_scope", "variable"): (_OPS + "variable_v1", "VariableV1"),
    **{(_OPS + "variable_scope", name): (_OPS + "resource_variables_toggle", name)
       for name in ("enable_resource_variables", "disable_resource_variables", "resource_variables_enabled")},
}


def install() -> None:
    """Gives tf-slim's modules the views described above (once; tf-slim is imported here)."""
    import tf_slim  # noqa: F401,PLC0415  (its modules, loaded, get the views below)

    views = {}
    for module_name, module in list(sys.modules.items()):
        if module_name.split(".")[0] != "tf_slim" or module is None:
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, types.ModuleType) and value.__name__ in _MOVED_FROM:
                if value.__name__ not in views:
                    views[value.__name__] = _with_moved_names(value)
                setattr(module, attribute, views[value.__name__])
    _install_per_replica_statistics(sys.modules["tf_slim.layers.layers"])
    _install_tf1_batch_normalization(sys.modules["tf_slim.layers.layers"])


_MOVED_FROM = frozenset(module_name for module_name, _ in MOVED_NAMES)


def _with_moved_names(module):
    """A copy of a TF module's namespace with the names tf-slim reads there and TF moved."""
    return _view(module, **{name: getattr(importlib.import_module(home), home_name)
                            for (module_name, name), (home, home_name) in MOVED_NAMES.items()
                            if module_name == module.__name__ and not hasattr(module, name)})


MOVING_STATISTICS = frozenset({"moving_mean", "moving_variance"})
_PER_REPLICA = {"synchronization": tf.VariableSynchronization.ON_READ,
                "aggregation": tf.VariableAggregation.MEAN}


def _install_per_replica_statistics(layers_module) -> None:
    """Gives slim's layers module the `variables` and `moving_averages` views described above."""
    if getattr(layers_module.variables, "_per_replica_statistics", False):
        return
    layers_module.variables = _view(layers_module.variables,
                                    model_variable=_per_replica_model_variable(
                                        layers_module.variables.model_variable),
                                    _per_replica_statistics=True)
    layers_module.moving_averages = _view(layers_module.moving_averages,
                                          assign_moving_average=_replica_moving_average(
                                              layers_module.moving_averages.assign_moving_average))


def _view(module, **replaced):
    """A copy of a module's namespace with some names replaced or added."""
    view = types.ModuleType(module.__name__, module.__doc__)
    view.__dict__.update(vars(module))
    view.__dict__.update(replaced)
    return view


def _per_replica_model_variable(model_variable):
    @functools.wraps(model_variable)
    def per_replica_statistics(name, *args, **kwargs):
        if name in MOVING_STATISTICS and not kwargs.get("trainable", True):
            for key, value in _PER_REPLICA.items():
                kwargs.setdefault(key, value)
        return model_variable(name, *args, **kwargs)
    return per_replica_statistics


def _replica_moving_average(assign_moving_average):
    @functools.wraps(assign_moving_average)
    def in_the_replica(variable, value, decay, zero_debias=True, name=None):
        replica = tf.distribute.get_replica_context()
        if zero_debias or replica is None or replica.num_replicas_in_sync <= 1:
            return assign_moving_average(variable, value, decay, zero_debias=zero_debias, name=name)
        with tf.compat.v1.name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
            decay = tf.convert_to_tensor(1.0 - decay, name="decay")
            if decay.dtype != variable.dtype.base_dtype:
                decay = tf.cast(decay, variable.dtype.base_dtype)
            return tf.compat.v1.assign_sub(variable, (variable - value) * decay, name=scope)
    return in_the_replica


def _install_tf1_batch_normalization(layers_module) -> None:
    """`batch_norm`'s core path on the bridge's `tf.layers.BatchNormalization` (see above)."""
    if getattr(layers_module.normalization_layers, "_bridge_layer", False):
        return
    layers_module.normalization_layers = _view(layers_module.normalization_layers,
                                               BatchNormalization=TF1BatchNormalization,
                                               _bridge_layer=True)


class TF1BatchNormalization:
    """The `tf.layers.BatchNormalization` tf-slim's `batch_norm` builds, as the bridge serves it.

    slim constructs it with its scope (`_scope`, `_reuse`), calls `apply(inputs, training=...)`
    once and reads `moving_mean`, `moving_variance`, `beta`, `gamma`.
    """

    def __init__(self, *, name=None, _scope=None, _reuse=None, **config):
        self._scope = _scope if _scope is not None else name
        self._reuse = _reuse
        self._config = config
        self.moving_mean = self.moving_variance = self.beta = self.gamma = None

    def apply(self, inputs, training=False):
        outputs = batch_normalization(inputs, training=training, name=self._scope,
                                      reuse=self._reuse, **self._config)
        prefix = self._scope.name + "/"
        for variable in tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES, prefix):
            short_name = variable.op.name[len(prefix):]
            if short_name in ("moving_mean", "moving_variance", "beta", "gamma"):
                setattr(self, short_name, variable)
        return outputs


install()
