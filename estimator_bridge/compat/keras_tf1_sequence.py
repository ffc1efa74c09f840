"""TF 1.x Keras' batches of `fit(sequence)` / `fit_generator(sequence)`: one stream over the Sequence per fit.

TF 1.x's loop (graph mode, no strategy) read a keras `Sequence` through one `OrderedEnqueuer` for the
whole fit: passes over the Sequence's indices, each in an order drawn with Python's
`random.shuffle` (the same list shuffled again for every pass) when `shuffle` was true (the default
of both fit and fit_generator), and the Sequence's `on_epoch_end()` between two passes. The epochs
took `steps_per_epoch` batches (`len(sequence)` when not given) one after the other from that
stream: a Sequence shorter than steps_per_epoch was cycled through, and after one longer the next
epoch went on where the last stopped. Keras 3 and tf-keras restart the Sequence at every epoch, draw
the order at other times (Keras 3 also ends a pseudo-epoch after reading batches for their shapes,
calling `on_epoch_end`), and a short Sequence ends the epoch (Keras 3) or the fit (tf-keras).
`stream(sequence, shuffle)` is TF 1.x's stream as an endless Python generator: fit on it with
`steps_per_epoch` (both Keras keep a generator's iterator across epochs then) gets TF 1.x's batches.
Measured: tests/migrate/test_keras_sequence_fit.py.
"""

from __future__ import annotations

import random


def _sequence_classes() -> tuple:
    classes = []
    try:
        import keras

        classes.append(keras.utils.PyDataset)   # Keras 3's Sequence is the same class
    except ImportError:  # pragma: no cover - Keras 3 ships with TensorFlow here
        pass
    try:
        import tf_keras

        classes.append(tf_keras.utils.Sequence)
    except ImportError:  # tf-keras is optional (`--keras 2`)
        pass
    return tuple(classes)


def is_sequence(data) -> bool:
    """Whether `data` is a keras Sequence (Keras 3's PyDataset or tf-keras' Sequence)."""
    return isinstance(data, _sequence_classes())


def stream(sequence, shuffle=True, class_weight=None, model=None):
    """The batches TF 1.x's OrderedEnqueuer served from `sequence`, pass after pass, without end.

    A batch given as a list is given as a tuple (what Keras 3's own Sequence reader does; its
    generator reader takes tuples only). An empty Sequence gives nothing. With `class_weight`, each
    batch comes with TF 1.x's per-row weights (its train_on_batch weighed every batch so, times the
    batch's own sample weights); with `model`, per output of a multi-output model (keras_tf1_weights:
    labels in a list or a dict by output name, fed as a tuple in output order).
    """
    from estimator_bridge.compat import keras_tf1_weights
    from estimator_bridge.compat.keras_tf1_shuffle import class_sample_weights

    order = list(range(len(sequence)))
    if not order:
        return
    first = True
    while True:
        if not first:
            sequence.on_epoch_end()
        first = False
        if shuffle:
            random.shuffle(order)
        for index in order:
            batch = sequence[index]
            batch = tuple(batch) if isinstance(batch, list) else batch
            if class_weight is not None and model is not None:
                x, y, *weights = batch
                weights = keras_tf1_weights.per_row(model, y, class_weight, weights[0] if weights else None)
                y, weights = (keras_tf1_weights.in_output_order(model, v) for v in (y, weights))
                batch = tuple(tuple(v) if isinstance(v, list) else v for v in (x, y, weights))
            elif class_weight is not None:
                x, y, *weights = batch
                batch = (x, y, class_sample_weights(y, class_weight, weights[0] if weights else None))
            yield batch
