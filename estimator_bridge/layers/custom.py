"""`tf.layers.Layer` and `tf.layers.InputSpec`: TF 1.15's base for user-defined TF1 layers.

Real TF1 code subclasses `tf.layers.Layer` (official Transformer's Attention/FeedForward, many
research heads): `__init__` stores configuration and often creates sub-layers
(`tf.layers.Dense(..., name="q")`), `build(input_shape)` creates weights with `add_weight` /
`add_variable`, `call(inputs, ...)` computes. TF 1.15 gave such a layer a variable scope
uniquified from its name (or its class name in snake case) at the first call, or at the first
`add_weight` if that came first, re-entered it with reuse at every later call, and created every
weight with `get_variable` there, so checkpoints hold `my_layer/kernel`, `outer/q/kernel`. This
class reproduces that on `tf.compat.v1.get_variable` (the bridge's variable cache names them),
with the collections TF 1.15 filled: regularization losses in REGULARIZATION_LOSSES once per
weight, `add_update` updates in UPDATE_OPS after each call.

Used as a mixin beside a Keras class (`class DepthwiseConv2D(tf.keras.layers.DepthwiseConv2D,
tf.layers.Layer)`), the Keras class comes first in the MRO and owns the object; this class then
adds nothing.
"""

from __future__ import annotations

import tensorflow as tf

from estimator_bridge import layer_arguments as _arguments
from estimator_bridge.layers.base import (LayerObjectState, LayerStateViews, add_activity_regularization,
                                          count_keras_name, snake_case)

tf1 = tf.compat.v1

# Keyword arguments TF 1.15's tf.layers.Layer accepted besides trainable/name/dtype.
_ACCEPTED_KEYWORDS = frozenset({"_scope", "_reuse", "activity_regularizer", "input_shape",
                                "batch_input_shape", "batch_size", "weights", "autocast",
                                "dynamic"})


class InputSpec:
    """`tf.layers.InputSpec`: what a layer accepts (dtype, shape, ndim, min/max ndim, axes)."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None):
        self.dtype = None if dtype is None else tf.as_dtype(dtype).name
        self.shape = shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.axes = axes or {}

    def check(self, inputs, layer_name):
        """TF 1.15's `assert_input_compatibility` for one input, with its wording."""
        rank = inputs.shape.rank
        prefix = f"Input 0 of layer {layer_name} is incompatible with the layer: "
        if self.ndim is not None and rank is not None and rank != self.ndim:
            raise ValueError(f"{prefix}expected ndim={self.ndim}, found ndim={rank}. "
                             f"Full shape received: {inputs.shape}")
        if self.max_ndim is not None and rank is not None and rank > self.max_ndim:
            raise ValueError(f"{prefix}expected max_ndim={self.max_ndim}, found ndim={rank}")
        if self.min_ndim is not None and rank is not None and rank < self.min_ndim:
            raise ValueError(f"{prefix}: expected min_ndim={self.min_ndim}, found ndim={rank}. "
                             f"Full shape received: {inputs.shape}")
        if self.dtype is not None and inputs.dtype.base_dtype.name != self.dtype:
            raise ValueError(f"{prefix}expected dtype={self.dtype}, found dtype={inputs.dtype.name}")
        for axis, value in self.axes.items():
            dim = tf.compat.dimension_value(inputs.shape[int(axis)]) if rank is not None else None
            if value is not None and dim not in (value, None):
                raise ValueError(f"{prefix}expected axis {axis} of input shape to have value "
                                 f"{value} but received input with shape {inputs.shape}")


class Layer(LayerStateViews):
    """`tf.layers.Layer` (TF 1.15): subclass it, override `build` and `call`, create weights
    with `add_weight` (alias `add_variable`); call the object to run it."""

    # Mixed into a Keras class, the Keras class runs, but TF 1.15 named the weights by variable
    # scope (runtime/keras_names.py reads this marker).
    _estimator_bridge_tf1_scoped_layer = True

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        if isinstance(self, tf.keras.layers.Layer):
            return  # a mixin beside a Keras class (EfficientNet's DepthwiseConv2D): Keras owns it
        unknown = sorted(set(kwargs) - _ACCEPTED_KEYWORDS)
        if unknown:
            raise TypeError(f"Keyword argument not understood: {unknown[0]!r} "
                            f"({type(self).__name__}; tf.layers.Layer accepts trainable, name, "
                            f"dtype and {sorted(_ACCEPTED_KEYWORDS)})")
        self.trainable = trainable
        self.built = False
        self._dtype = None if dtype is None else tf.as_dtype(dtype)
        self._reuse = kwargs.get("_reuse")
        self._given_scope = kwargs.get("_scope")
        regularizer = kwargs.get("activity_regularizer")
        self._activity_regularizer = (_arguments.resolve({"activity_regularizer": regularizer})
                                      ["activity_regularizer"] if regularizer is not None else None)
        if not name:
            count_keras_name(snake_case(type(self).__name__))
        base_name = name or snake_case(type(self).__name__)
        self._state = LayerObjectState(base_name)
        self.name = base_name
        self.input_spec = None
        self._losses = []

    # ---- scope ----------------------------------------------------------------------------
    def _set_scope(self, scope=None):
        """TF 1.15's `_set_scope`: the layer's variable scope, captured once."""
        if self._state.scope is not None:
            return
        if self._given_scope is not None:
            opener = tf1.variable_scope(self._given_scope)
        elif self._reuse:
            opener = tf1.variable_scope(scope if scope is not None else self._state.base_name)
        else:
            opener = tf1.variable_scope(scope, default_name=self._state.base_name)
        with opener as captured:
            self._state.scope = captured
        self.name = captured.name.rsplit("/", 1)[-1]

    def _entered(self):
        """The captured scope re-entered (reuse once built) with its original name scope."""
        scope = tf1.variable_scope(self._state.scope, reuse=self.built or self._reuse,
                                   auxiliary_name_scope=False)
        return scope

    # ---- weights ----------------------------------------------------------------------------
    @property
    def dtype(self):
        return None if self._dtype is None else self._dtype.name

    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, use_resource=None,
                   synchronization=tf.VariableSynchronization.AUTO,
                   aggregation=tf.VariableAggregation.NONE, partitioner=None, **kwargs):
        """`get_variable(name)` in the layer's scope (created now if the layer has none yet)."""
        del use_resource, kwargs  # resource variables only; Keras-1's extra keywords
        if synchronization == tf.VariableSynchronization.ON_READ:
            if trainable:
                raise ValueError("Synchronization value can be set to VariableSynchronization.ON_READ "
                                 "only for non-trainable variables. You have specified trainable=True "
                                 "and synchronization=VariableSynchronization.ON_READ.")
            trainable = False
        elif trainable is None:
            trainable = True
        self._set_scope(None)
        dtype = tf.as_dtype(dtype or self._dtype or tf.float32)
        with self._entered() as scope:
            with tf1.name_scope(scope.original_name_scope):
                variable = tf1.get_variable(
                    name, shape=shape, dtype=dtype,
                    initializer=initializer if initializer is not None else scope.initializer,
                    regularizer=regularizer, trainable=trainable and self.trainable,
                    constraint=constraint, partitioner=partitioner,
                    synchronization=synchronization, aggregation=aggregation)
        if not any(known is variable for known in self._state.variables):
            self._state.variables.append(variable)
        return variable

    add_variable = add_weight

    def add_update(self, updates, inputs=None):
        del inputs
        updates = updates if isinstance(updates, (list, tuple)) else [updates]
        self._state.updates.extend(u for u in updates if u is not None)

    def add_loss(self, losses, inputs=None):
        """A layer loss; TF 1.15 also put it in REGULARIZATION_LOSSES (graph mode)."""
        del inputs
        for loss in losses if isinstance(losses, (list, tuple)) else [losses]:
            loss = loss() if callable(loss) else loss
            if loss is not None:
                self._losses.append(loss)
                tf1.add_to_collection(tf1.GraphKeys.REGULARIZATION_LOSSES, loss)

    # ---- what subclasses override -----------------------------------------------------------
    def build(self, input_shape):
        del input_shape
        self.built = True

    def call(self, inputs, **kwargs):
        del kwargs
        return inputs

    def compute_output_shape(self, input_shape):
        raise NotImplementedError(f"{type(self).__name__}.compute_output_shape is not defined")

    # ---- calling ----------------------------------------------------------------------------
    def __call__(self, inputs, *args, **kwargs):
        scope = kwargs.pop("scope", None)
        self._set_scope(scope)
        updates_before = len(self._state.updates)
        with self._entered() as variable_scope:
            with tf1.name_scope(variable_scope.original_name_scope):
                first = tf.nest.flatten(inputs)[0] if tf.nest.flatten(inputs) else None
                if isinstance(self.input_spec, InputSpec) and first is not None:
                    self.input_spec.check(tf.convert_to_tensor(first), self.name)
                if not self.built:
                    if self._dtype is None and first is not None:
                        first_dtype = tf.as_dtype(getattr(first, "dtype", tf.float32))
                        self._dtype = first_dtype if first_dtype.is_floating else tf.float32
                    shapes = tf.nest.map_structure(
                        lambda x: x.shape if hasattr(x, "shape") else None, inputs)
                    self.build(shapes)
                    self.built = True
                outputs = self.call(inputs, *args, **kwargs)
                if self._activity_regularizer is not None:
                    for output in tf.nest.flatten(outputs):
                        add_activity_regularization(output, self._activity_regularizer)
        collection = tf1.get_collection_ref(tf1.GraphKeys.UPDATE_OPS)
        present = {id(op) for op in collection}
        collection.extend(u for u in self._state.updates[updates_before:] if id(u) not in present)
        return outputs

    apply = __call__

    # ---- what TF 1.15's layers exposed -------------------------------------------------------
    @property
    def losses(self):
        return list(self._losses)
