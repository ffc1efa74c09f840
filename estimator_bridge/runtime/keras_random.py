"""Keras 3's random layers draw fresh numbers at every step of a model_fn trace, as TF 1.15's did.

TF 1.15's `tf.keras.layers.Dropout` (and every random op) drew a new mask each time a step ran.
Keras 3 draws from a `SeedGenerator`: `next()` reads its state variable and assigns the state
plus one, but nothing consumes the assignment. The bridge runs a step with TF1 fetch semantics
(only what the fetches reach runs: fetched_updates.py for train steps, graph_step.py's pruned
graphs for eval and predict), so the assignment never ran and every step of a migrated program
used the first step's mask (tensorflow/tpu's EfficientNet: one dropout mask before the logits
for all of training). Inside a trace `next()` here returns the state it read with a control
dependency on the assignment: whatever consumes the random numbers advances the state, once per
step. Outside a trace (eager Keras, Keras' own tf.functions) Keras' `next()` runs unchanged.
"""

from __future__ import annotations

import tensorflow as tf

from estimator_bridge.runtime import keras_names

try:  # Keras 3's seed generator (keras.src is its only home)
    from keras.src.random import seed_generator as _seed_generator
except ImportError:  # pragma: no cover - Keras 3 is a dependency
    _seed_generator = None


def _next_state(state, ordered: bool):
    """Keras' own update of a seed state (`SeedGenerator.next`)."""
    if ordered:
        return state + tf.constant([0, 1], dtype=state.dtype)
    return (state + 1) * 5387 % 933199


def _install() -> None:
    if _seed_generator is None or getattr(_seed_generator.SeedGenerator, "_estimator_bridge_tf1", False):
        return
    keras_next = _seed_generator.SeedGenerator.next

    def next_that_advances(self, ordered=True):
        if not keras_names.in_trace():
            return keras_next(self, ordered)
        variable = self.state.value
        seed = variable.read_value()
        advance = variable.assign(_next_state(seed, ordered), read_value=False)
        with tf.control_dependencies([advance]):
            return tf.identity(seed)

    _seed_generator.SeedGenerator.next = next_that_advances
    _seed_generator.SeedGenerator._estimator_bridge_tf1 = True


_install()
