"""Keras 2 utilities Keras 3 removed, kept for migrated code (estimator-migrate writes the calls).

- `keras.utils.print_summary(model, line_length, positions, print_fn)` was `model.summary(...)` with
  the same parameters (Keras 3 kept only the method).
- `cell.get_initial_state(inputs=None, batch_size=None, dtype=None)` of Keras 2 RNN cells: Keras 3's
  cells take `batch_size` only and build their states in the cell's dtype. Decided at run time (the
  receiver may be a TF 1.x cell, whose method still takes all three): a Keras 3 layer gets the batch
  size (taken from `inputs` when only they are given, as Keras 2 did) and its states are cast to
  `dtype` when one is given (a one-state cell's state alone, as Keras 2 returned it); anything else
  is called as written.
"""

from __future__ import annotations


def print_summary(model, line_length=None, positions=None, print_fn=None):
    return model.summary(line_length=line_length, positions=positions, print_fn=print_fn)


def get_initial_state(cell, inputs=None, batch_size=None, dtype=None):
    import keras

    if not isinstance(cell, keras.layers.Layer):
        return cell.get_initial_state(inputs=inputs, batch_size=batch_size, dtype=dtype)
    if batch_size is None and inputs is not None:
        batch_size = keras.ops.shape(inputs)[0]
    states = cell.get_initial_state(batch_size=batch_size)
    if isinstance(getattr(cell, "state_size", None), int) and isinstance(states, (list, tuple)) and len(states) == 1:
        states = states[0]   # Keras 2 gave a one-state cell (GRUCell, SimpleRNNCell) its state, not a list
    if dtype is None:
        return states
    return [keras.ops.cast(state, dtype) for state in states] if isinstance(states, (list, tuple)) \
        else keras.ops.cast(states, dtype)
