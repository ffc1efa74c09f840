"""What every TF1 layer shares: its variable scope and name, weights, argument checks.

TF 1.15's `tf.layers.Layer` machinery reduced to what the functional layers need: the scope
each call opens (`layer_scope`: `dense`, `dense_1`, reuse), `get_variable` under it
(`get_weight`), the UPDATE_OPS / REGULARIZATION_LOSSES collections, Keras-1's argument
normalisation and its error wording, and the state a layer object keeps across calls.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import functools
import inspect
import re

import tensorflow as tf

from estimator_bridge import layer_arguments as _arguments

tf1 = tf.compat.v1


class LayerObjectState:
    """What one `tf.layers` object (e.g. `Dense(3)`) keeps across calls: its scope, its weights."""

    def __init__(self, base_name):
        self.base_name = base_name
        self.scope = None  # captured at the first call, re-entered with reuse=True afterwards
        self.variables = []
        self.updates = []
        # The object's own `_moments(inputs, reduction_axes, keep_dims)` when its class overrides
        # TF 1.15's (the one Keras-1 hook the layer functions honour: batch_normalization's
        # non-fused path calls it, as TF 1.15's BatchNormalization.call did).
        self.moments = None


class LayerStateViews:
    """The read-only views of a `tf.layers` object's `self._state` (a LayerObjectState), shared by
    the object forms (objects.py) and user subclasses of `tf.layers.Layer` (custom.py)."""

    @property
    def scope_name(self):
        if self._state.scope is None:
            raise ValueError(f'No name available for layer scope because the layer "{self.name}" '
                             "has not been used yet. Call the layer before querying `scope_name`.")
        return self._state.scope.name

    @property
    def variables(self):
        """The layer's own weights: TF 1.15's tf.layers.Layer bypassed Keras' attribute tracking,
        so sub-layers held in attributes are not included (measured on the oracle)."""
        return list(self._state.variables)

    weights = variables

    @property
    def trainable_variables(self):
        return [v for v in self._state.variables if v.trainable]

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self):
        return [v for v in self._state.variables if not v.trainable]

    non_trainable_weights = non_trainable_variables

    @property
    def updates(self):
        return list(self._state.updates)


def snake_case(class_name: str) -> str:
    """Keras-1's `to_snake_case`: a layer's default name from its class (`Conv2DTranspose` ->
    `conv2d_transpose`, `TpuBatchNormalization` -> `tpu_batch_normalization`)."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", class_name)
    snake = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return snake if snake[0] != "_" else "private" + snake


def count_keras_name(base_name: str) -> None:
    """Takes one number of Keras' layer-name counter for `base_name`, as TF 1.15 did.

    TF 1.15's `tf.layers` layers were Keras layers: one made without a name (`tf.layers.Dense(3)`,
    `tf.layers.dense(x, 3)`) drew its object name from the graph's Keras counter, so a
    `tf.keras.layers.Dense` made after two of them was `dense_2`, and its weights
    `dense_2/kernel` (measured: tests/estimator_bridge/real_patterns/keras_model_subclass.py).
    """
    from estimator_bridge.runner_keras import tensorflow_serves_tf_keras

    if tensorflow_serves_tf_keras():  # the compat runner's Keras 2: its per-graph counter
        from tf_keras.src import backend as tf_keras_backend

        tf_keras_backend.unique_object_name(base_name, zero_based=True)
        return
    try:
        from keras.src.backend.common import global_state  # Keras 3's counters
    except ImportError:  # pragma: no cover - Keras 3 is a dependency
        return
    counters = global_state.get_global_attribute(
        "object_name_uids", default=collections.defaultdict(int), set_to_default=True)
    counters[base_name] += 1


# Set while a layer object's __call__ runs the functional code for it.
calling_object = contextvars.ContextVar("estimator_bridge_layer_object", default=None)


@contextlib.contextmanager
def layer_scope(name, default_name, reuse=None, owns_variables=True):
    """Enter the variable scope and name scope TF 1.15's `tf.layers.Layer` used for one call.

    TF1 layers with variables pass `_scope=name`: a given name opens `variable_scope(name)`
    unchanged (a second call with the same name and no reuse then fails on `get_variable`, as in
    TF1); no name with `reuse=True` opens `variable_scope(default_name)`; otherwise the scope is
    uniquified from `default_name` (`dense`, `dense_1`, ...). Layers without variables (pooling,
    dropout, flatten) never pass `_scope` and are always uniquified from `name or default_name`.
    A layer object (`tf.layers.Dense(...)`) is uniquified from its name at its first call and
    re-enters that scope with `reuse=True` at every later call (TF1's `_always_reuse_variable_scope`).
    """
    owner = calling_object.get()
    if owner is not None and owner.scope is not None:
        captured_scope, reuse = owner.scope, True
    else:
        if owner is not None:
            opener = tf1.variable_scope(None, default_name=owner.base_name)
        elif owns_variables and name:
            opener = tf1.variable_scope(name)
        elif owns_variables and reuse:
            opener = tf1.variable_scope(default_name)
        else:
            opener = tf1.variable_scope(None, default_name=name or default_name)
        if owner is None and not name:
            count_keras_name(default_name)  # a functional call made a nameless TF1 layer
        with opener as captured_scope:
            pass
        if owner is not None:
            owner.scope = captured_scope
    with tf1.variable_scope(captured_scope, reuse=reuse, auxiliary_name_scope=False) as scope:
        with tf1.name_scope(scope.original_name_scope):
            yield scope


def as_input_tensor(inputs, layer_name):
    """Convert the layer input like Keras-1 `Layer.__call__` did; its dtype becomes the weights'."""
    inputs = tf.convert_to_tensor(inputs)
    if inputs.shape.rank is None:
        raise ValueError(
            f"`{layer_name}` needs an input of known rank; got {inputs!r}. Give the input a static "
            "rank (e.g. with `tf.ensure_shape` or `set_shape`).")
    return inputs


def check_rank(inputs, layer_name, expected_rank=None, min_rank=None):
    """The InputSpec check of TF 1.15, with its wording (`expected ndim=4, found ndim=3`)."""
    rank = inputs.shape.rank
    if expected_rank is not None and rank != expected_rank:
        raise ValueError(
            f"Input 0 of layer {layer_name} is incompatible with the layer: expected "
            f"ndim={expected_rank}, found ndim={rank}. Full shape received: {inputs.shape}")
    if min_rank is not None and rank < min_rank:
        raise ValueError(
            f"Input 0 of layer {layer_name} is incompatible with the layer: expected "
            f"min_ndim={min_rank}, found ndim={rank}. Full shape received: {inputs.shape}")


def get_weight(name, shape, dtype, initializer, regularizer=None, trainable=True, constraint=None,
                synchronization=tf.VariableSynchronization.AUTO,
                aggregation=tf.VariableAggregation.NONE):
    """`get_variable` in the current layer scope, as TF1's `Layer.add_weight` called it.

    `initializer=None` falls back to the scope's initializer, then to glorot_uniform for floats
    (get_variable's own rule, the one TF1 layers inherited). The regularizer goes through
    get_variable too: the store adds its loss to REGULARIZATION_LOSSES only when it creates the
    variable, so reused layers do not count it twice (TF1's `_should_add_regularizer`).
    """
    variable = tf1.get_variable(
        name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
        trainable=trainable, constraint=constraint, synchronization=synchronization,
        aggregation=aggregation)
    owner = calling_object.get()
    if owner is not None and not any(known is variable for known in owner.variables):
        owner.variables.append(variable)
    return variable


def add_activity_regularization(outputs, activity_regularizer):
    """Keras-1's activity regularization: regularizer(outputs) / batch size, as a layer loss."""
    if activity_regularizer is None:
        return
    with tf1.name_scope("ActivityRegularizer"):
        activity_loss = activity_regularizer(outputs)
        batch_size = tf.cast(tf.shape(outputs)[0], activity_loss.dtype)
        tf1.add_to_collection(tf1.GraphKeys.REGULARIZATION_LOSSES, activity_loss / batch_size)


def add_updates(updates):
    """Put update ops into UPDATE_OPS once each (TF1's `_add_elements_to_collection`)."""
    owner = calling_object.get()
    if owner is not None:
        owner.updates.extend(updates)
    collection = tf1.get_collection_ref(tf1.GraphKeys.UPDATE_OPS)
    present = {id(op) for op in collection}
    for update in updates:
        if id(update) not in present:
            collection.append(update)


def normalize_tuple(value, rank, argument):
    """Keras-1 `conv_utils.normalize_tuple`: an int or a sequence of `rank` ints."""
    if isinstance(value, int):
        return (value,) * rank
    try:
        values = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(
            f"The `{argument}` argument must be a tuple of {rank} integers. Received: {value!r}"
        ) from None
    if len(values) != rank:
        raise ValueError(
            f"The `{argument}` argument must be a tuple of {rank} integers. Received: {value!r}")
    return values


def normalize_padding(padding, allowed=("valid", "same")):
    normalized = padding.lower() if isinstance(padding, str) else padding
    if normalized not in allowed:
        raise ValueError(
            f"The `padding` argument must be one of {list(allowed)}. Received: {padding!r}")
    return normalized


def normalize_data_format(data_format):
    normalized = (data_format or "channels_last").lower()
    if normalized not in ("channels_first", "channels_last"):
        raise ValueError(
            "The `data_format` argument must be one of 'channels_first', 'channels_last'. "
            f"Received: {data_format!r}")
    return normalized


def tf_data_format(data_format, rank):
    """'channels_last' -> NWC/NHWC, 'channels_first' -> NCW/NCHW (conv_utils.convert_data_format)."""
    spatial = {1: "W", 2: "HW", 3: "DHW"}[rank]
    return f"N{spatial}C" if data_format == "channels_last" else f"NC{spatial}"


def keras_arguments(function):
    """Read activation/initializer/regularizer/constraint arguments as TF 1.15's Keras-1 layers
    did: names (`activation="relu"`, `kernel_initializer="he_normal"`) and config dicts too."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        return function(**_arguments.resolve(bound.arguments))

    return wrapper


def activate(outputs, activation):
    return activation(outputs) if activation is not None else outputs


def weights_dtype(inputs, layer_name):
    dtype = inputs.dtype.base_dtype
    if not (dtype.is_floating or dtype.is_complex):
        raise TypeError(
            f"Unable to build `{layer_name}` layer with non-floating point dtype {dtype.name}; "
            "cast the input to a float type first.")
    return dtype
