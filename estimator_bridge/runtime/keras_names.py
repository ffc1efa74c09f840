"""TF 1.15's checkpoint names for Keras layers built inside a model_fn.

TF 1.x graph-mode Keras named a layer's variables by the layer's name scope: the first
`tf.keras.layers.Dense` of a graph made `dense/kernel` and `dense/bias`, the second `dense_1/...`,
inside any enclosing `tf.variable_scope` (`model/dense/kernel`), with layer-name counters that
started again in every new graph. Keras 3 asks TensorFlow for a variable called just `kernel`
(the layer path lives in Keras' own name-scope stack) and counts layer names per thread for the
whole process, so the same model_fn would checkpoint `kernel`, `kernel_1`, ... and TF 1.x
model_dirs could neither resume nor warm-start.

The variable cache asks `tf1_variable_name` for the name of each request and calls
`start_graph` where TF1 started a new graph (every model_fn trace).
"""

from __future__ import annotations

import collections

import tensorflow as tf

try:  # Keras 3's name-scope stack and name counters (keras.src is Keras 3's only home for them)
    from keras.src.backend.common import global_state as _keras_state
    from keras.src.backend.common.name_scope import current_path as _keras_path
except ImportError:  # pragma: no cover - Keras 3 is a dependency; without it there is nothing to map
    _keras_state = None
    _keras_path = None


def start_graph() -> None:
    """Layer names count from zero again in this thread (`dense`, `dense_1`, ...), as per TF1 graph."""
    if _keras_state is not None:
        _keras_state.set_global_attribute("object_name_uids", collections.defaultdict(int))


def tf1_variable_name(requested: str) -> str:
    """The TF1 name of a variable request: Keras layer variables get their layer path and the
    enclosing TF1 variable scope; every other request keeps its name."""
    if _keras_path is None or "/" in requested:
        return requested
    path = _keras_path()
    if not path:
        return requested
    scope = tf.compat.v1.get_variable_scope().name
    return "/".join(part for part in (scope, path, requested) if part)
