"""TF 1.15's checkpoint names for Keras layers built inside a model_fn.

TF 1.x graph-mode Keras created a layer's weights with `tf.Variable(name=...)` inside the layer's
name scope, so a weight's name was the graph's *name scope* at the layer's first call plus the
weight's name: `conv2d/kernel`, `dense_1/bias`, `model/dense/kernel` inside a `tf.variable_scope`
or a Keras Model subclass, `net/blocks_0/conv2d_1/kernel` when the model's `call` opens
`tf.variable_scope('blocks_0')` (measured on the oracle: tests/estimator_bridge/real_patterns/
keras_model_subclass.py). Layer-name counters (`dense`, `dense_1`, ...) started again in every
new graph. Keras 3 differs in four ways, each undone here while the bridge traces a model_fn:

* it asks TensorFlow for a variable called just `kernel` and counts layer names per process: the
  name is rebuilt from the graph's name scope at the request, relative to where the trace's
  model_fn runs (`while/` or `replica_1/` are the bridge's, not the program's), and the counters
  restart per trace (`start_graph`);
* it builds a Model or Layer subclass that has no `build()` by running its `call` on symbolic
  inputs in a scratch graph and creating every sub-layer's weights when that ends, all under the
  model's own name scope (`model/kernel`, `kernel_1`, ... for every sub-layer's kernel): inside a
  bridge trace sub-layers build at their own first call, as in TF1;
* its `__call__` enters a layer's name scope twice (build, then call), so a container's call ran
  in `model_1/`: a layer re-enters the scope it first had under the same parent;
* a few weights were renamed (`DepthwiseConv2D`'s `depthwise_kernel` is Keras 3's `kernel`).

A Keras class mixed with `tf.layers.Layer` (`class DepthwiseConv2D(tf.keras.layers.DepthwiseConv2D,
tf.layers.Layer)`) was a TF1 `tf.layers` layer: its weights lived in a variable scope uniquified
from its name inside the variable scope of its first call (`net/blocks_0/depthwise_conv2d/
depthwise_kernel`), not in the name scope. Keras 3's random-number state (`SeedGenerator`, made by `Dropout`) had no TF1 counterpart:
it is kept out of checkpoints (`is_rng_state_request`), so TF 1.15 checkpoints restore and the
bridge writes the same set of names.

Under the compat runner Keras is Keras 2 (tf-keras), which names and builds weights as TF 1.15's
Keras did; only the tf.layers-mixed class needs its variable scope there (its add_weight marks the
request), and `tf.layers` objects draw from tf-keras' per-graph layer-name counter
(layers/base.count_keras_name).

The variable cache asks `tf1_variable_name` for the name of each request, enters `tracing()`
around every model_fn trace and calls `start_graph` where TF1 started a new graph.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import re
import threading
import weakref

import tensorflow as tf
from tensorflow.python.framework import ops

try:  # Keras 3's name-scope stack and name counters (keras.src is Keras 3's only home for them)
    from keras.src.backend.common import global_state as _keras_state
    from keras.src.backend.common.name_scope import current_path as _keras_path
    from keras.src.backend.tensorflow import core as _keras_tf_core
    from keras.src.layers import layer as _keras_layer_module
except ImportError:  # pragma: no cover - Keras 3 is a dependency; without it there is nothing to map
    _keras_state = None
    _keras_path = None
    _keras_tf_core = None
    _keras_layer_module = None

# (Keras class in the layer's MRO, Keras 3 weight name) -> the name TF 1.15's Keras gave it.
KERAS2_WEIGHT_NAMES = {
    ("DepthwiseConv1D", "kernel"): "depthwise_kernel",
    ("DepthwiseConv2D", "kernel"): "depthwise_kernel",
}

# Marks a class whose instances name their weights by TF1 variable scope (tf.layers.Layer).
TF1_SCOPED_LAYER_ATTRIBUTE = "_estimator_bridge_tf1_scoped_layer"

_state = threading.local()
# Per graph (a trace): {key: (object kept alive with its id, name)} of the two memos below.
_per_graph: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _graph_memo(kind: str) -> dict:
    return _per_graph.setdefault(ops.get_default_graph(), {}).setdefault(kind, {})


def _bases() -> list:
    if not hasattr(_state, "bases"):
        _state.bases = []
    return _state.bases


@contextlib.contextmanager
def tracing():
    """Marks a model_fn trace in this thread; the graph's name scope here is the trace's root."""
    bases = _bases()
    bases.append(ops.get_default_graph().get_name_scope() if not tf.executing_eagerly() else "")
    try:
        yield
    finally:
        bases.pop()


def name_scope_in_trace() -> str:
    """The current name scope relative to the trace's root ('' outside a model_fn trace).

    In the eager context `tf.init_scope()` lifts to (where v1 optimizers create their non-slot
    variables), it is the scope the graph had there: init_scope carries it over, as in TF1.
    """
    bases = getattr(_state, "bases", None)
    if not bases:
        return ""
    scope = ops.get_name_scope().rstrip("/")
    base = bases[-1]
    if base and (scope == base or scope.startswith(base + "/")):
        scope = scope[len(base):].lstrip("/")
    return scope


def in_trace() -> bool:
    """True while this thread builds a model_fn trace (graph code, not the eager context)."""
    return bool(getattr(_state, "bases", None)) and not tf.executing_eagerly()


def start_graph() -> None:
    """Layer names count from zero again in this thread (`dense`, `dense_1`, ...), as per TF1 graph."""
    if _keras_state is not None:
        _keras_state.set_global_attribute("object_name_uids", collections.defaultdict(int))


def _calling_object():
    """The object whose Keras name scope is innermost (a layer, a SeedGenerator), or None."""
    if _keras_state is None:
        return None
    stack = _keras_state.get_global_attribute("name_scope_stack")
    return stack[-1].caller if stack else None


def is_rng_state_request() -> bool:
    """Keras 3's SeedGenerator state (Dropout and the other random layers): no TF1 counterpart."""
    caller = _calling_object()
    return caller is not None and type(caller).__name__ == "SeedGenerator" and \
        type(caller).__module__.startswith("keras")


def _keras2_weight_name(caller, requested: str) -> str:
    for cls in type(caller).__mro__:
        if cls.__module__.startswith("keras"):
            renamed = KERAS2_WEIGHT_NAMES.get((cls.__name__, requested))
            if renamed:
                return renamed
    return requested


def _snake_case(class_name: str) -> str:
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", class_name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()


def _tf1_scope_of(caller) -> str:
    """A tf.layers-mixed Keras layer's TF1 variable scope in this graph: uniquified from its base
    name inside the variable scope of its first weight request (TF 1.15's `_set_scope`)."""
    scopes = _graph_memo("tf1_layer_scopes")
    if id(caller) not in scopes:
        default = _snake_case(type(caller).__name__)
        # A Keras-made name (`depthwise_conv2d_3`) is not the user's: TF1 uniquified the base.
        given = caller.name if not re.fullmatch(re.escape(default) + r"(_\d+)?", caller.name) else None
        opener = (tf.compat.v1.variable_scope(given) if given
                  else tf.compat.v1.variable_scope(None, default_name=default))
        with opener as captured:
            scopes[id(caller)] = (caller, captured.name)  # the object is kept alive with its id
    return scopes[id(caller)][1]


def tf1_variable_name(requested: str) -> str:
    """The TF1 name of a variable request: Keras layer weights get TF 1.15's graph-mode name;
    every other request keeps its name."""
    tf_keras_caller = _tf1_scoped_tf_keras_caller.get()
    if tf_keras_caller is not None and "/" not in requested:
        return f"{_tf1_scope_of(tf_keras_caller)}/{requested}"
    if _keras_path is None or "/" in requested:
        return requested
    caller = _calling_object()
    if caller is None or not _keras_path():
        return requested
    weight = _keras2_weight_name(caller, requested)
    if getattr(caller, TF1_SCOPED_LAYER_ATTRIBUTE, False):
        return f"{_tf1_scope_of(caller)}/{weight}"
    if in_trace():
        scope = ops.get_default_graph().get_name_scope()
        base = _bases()[-1]
        if base and (scope == base or scope.startswith(base + "/")):
            scope = scope[len(base):].lstrip("/")
        return f"{scope}/{weight}" if scope else weight
    scope = tf.compat.v1.get_variable_scope().name
    return "/".join(part for part in (scope, _keras_path(), weight) if part)


# ---- Keras 3 behaviours undone inside a trace (installed once, active only in `tracing()`) ------

def _install() -> None:
    if _keras_layer_module is None or getattr(_keras_layer_module, "_estimator_bridge_tf1", False):
        return
    might_have_unbuilt_state = _keras_layer_module.might_have_unbuilt_state

    def builds_by_running_call(layer):
        # In a trace, False: sub-layers build at their own first call (TF1), not all at once
        # under the container's name scope in a scratch graph.
        return False if in_trace() else might_have_unbuilt_state(layer)

    _keras_layer_module.might_have_unbuilt_state = builds_by_running_call

    name_scope = _keras_tf_core.name_scope
    enter = name_scope.__enter__

    def entered_once_per_parent(self):
        if not in_trace() or not isinstance(self.caller, _keras_layer_module.Layer):
            return enter(self)
        graph = ops.get_default_graph()
        known = _graph_memo("keras_scopes")
        key = (id(self.caller), graph.get_name_scope())
        if key in known:
            self._tf_name_scope = tf.name_scope(known[key][1] + "/")
        result = enter(self)
        if key not in known and getattr(self, "_pop_on_exit", False):
            known[key] = (self.caller, graph.get_name_scope())
        return result

    name_scope.__enter__ = entered_once_per_parent
    _keras_layer_module._estimator_bridge_tf1 = True


_install()


# ---- tf-keras (the compat runner's Keras 2): a tf.layers-mixed layer's weights by variable scope ---

# The tf.layers-mixed tf-keras layer whose add_weight runs (tf-keras names weights by name scope).
_tf1_scoped_tf_keras_caller = contextvars.ContextVar("estimator_bridge_tf1_scoped_tf_keras_layer", default=None)


def _install_tf_keras() -> None:
    """tf-keras (Keras 2) builds sub-layers at their first call and names weights by the graph's
    name scope, as TF 1.15's Keras did; only a class mixed with `tf.layers.Layer` differs (TF 1.15
    named its weights by variable scope): its add_weight marks the request for tf1_variable_name."""
    from estimator_bridge.runner_keras import tensorflow_serves_tf_keras

    if not tensorflow_serves_tf_keras():
        return
    from tf_keras.src.engine import base_layer, base_layer_v1

    for layer_class in (base_layer.Layer, base_layer_v1.Layer):
        original = layer_class.add_weight
        if getattr(original, "_estimator_bridge_tf1", False):
            continue

        def add_weight(self, *args, _original=original, **kwargs):
            if not getattr(self, TF1_SCOPED_LAYER_ATTRIBUTE, False):
                return _original(self, *args, **kwargs)
            token = _tf1_scoped_tf_keras_caller.set(self)
            try:
                return _original(self, *args, **kwargs)
            finally:
                _tf1_scoped_tf_keras_caller.reset(token)

        add_weight._estimator_bridge_tf1 = True
        layer_class.add_weight = add_weight


_install_tf_keras()
