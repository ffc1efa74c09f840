"""TF 1.x Keras' rank-1 inputs: a 1-D array fed to a model input of rank 2 is an (n, 1) column.

TF 1.x's Keras standardised every array a model method got (`training_utils.standardize_input_data`):
a rank-1 numpy array for an input whose rank is not 1 became `np.expand_dims(x, 1)`, and a list of
Python numbers for a one-input model became an array first. TF 1.15 measured: predict,
predict_on_batch, evaluate, train_on_batch, test_on_batch and fit all take `x` of shape (5,) (or a
list of 5 floats) for an input of shape (None, 1). Keras 3 and tf-keras refuse the list, and take
the 1-D array only until the method's traced function has seen a rank-2 one: the retrace relaxes the
shape to an unknown rank and fails ("as_list() is not defined on an unknown TensorShape"), e.g. a
sampling loop that feeds `seed[:, -1:]` (5, 1) and then `np.asarray(next_idx)` (5,).
estimator-migrate routes these calls of TF 1.x files through the helpers below, which expand such
inputs, as TF 1.x did, and call the model's own method.
"""

from __future__ import annotations


def _input_ranks(model) -> list[tuple[str, int | None]] | None:
    """(name, rank) of each input of a model with declared inputs; None when it has none (subclassed,
    an unbuilt Sequential, not a Keras model)."""
    try:
        inputs = list(getattr(model, "inputs", None) or [])
    except (AttributeError, ValueError):   # Keras 3: an unbuilt Sequential has no inputs yet
        return None
    ranks = []
    for tensor in inputs:
        shape = getattr(tensor, "shape", None)
        try:
            ranks.append((getattr(tensor, "name", None), None if shape is None else len(shape)))
        except (TypeError, ValueError):     # a shape of unknown rank
            ranks.append((getattr(tensor, "name", None), None))
    return ranks or None


def _column(value, rank: int | None):
    """`value` as TF 1.x fed it to an input of `rank`: a rank-1 numpy array for a rank-2 input as (n, 1)."""
    import numpy as np

    if rank == 2 and isinstance(value, np.ndarray) and value.ndim == 1:
        return np.expand_dims(value, 1)
    return value


def standardized(model, x):
    """`x` with TF 1.x's rank-1 expansion applied per model input; anything else as it is.

    - one input: a numpy array, or a list/tuple of Python numbers (made an array, as TF 1.x did);
    - several inputs: a list/tuple with one entry per input, or a dict by input name.
    """
    import numpy as np

    ranks = _input_ranks(model)
    if ranks is None or x is None:
        return x
    if len(ranks) == 1:
        if isinstance(x, (list, tuple)) and x and isinstance(x[0], (float, int)):   # TF 1.15's test
            x = np.asarray(x)
        return _column(x, ranks[0][1])
    if isinstance(x, (list, tuple)) and len(x) == len(ranks):
        return type(x)(_column(value, rank) for value, (_, rank) in zip(x, ranks))
    if isinstance(x, dict):
        by_name = dict(ranks)
        return {key: _column(value, by_name.get(key)) for key, value in x.items()}
    return x


def predict_tf1(model, x=None, *args, **kwargs):
    """`model.predict(x, ...)` with TF 1.x's rank-1 inputs."""
    return model.predict(standardized(model, x), *args, **kwargs)


def predict_on_batch_tf1(model, x=None, *args, **kwargs):
    """`model.predict_on_batch(x)` with TF 1.x's rank-1 inputs."""
    return model.predict_on_batch(standardized(model, x), *args, **kwargs)


def evaluate_tf1(model, x=None, *args, **kwargs):
    """`model.evaluate(x, ...)` with TF 1.x's rank-1 inputs, and TF 1.x's loss over a generator, Sequence
    or dataset: the mean of the step losses (compat/keras_step_mean.py)."""
    from estimator_bridge.compat.keras_step_mean import per_step, step_mean_losses

    if not per_step(x):
        return model.evaluate(standardized(model, x), *args, **kwargs)
    with step_mean_losses(model):
        return model.evaluate(x, *args, **kwargs)


def evaluate_generator_tf1(model, *args, **kwargs):
    """tf-keras' `model.evaluate_generator(...)` with TF 1.x's loss: the mean of the step losses."""
    from estimator_bridge.compat.keras_step_mean import step_mean_losses

    with step_mean_losses(model):
        return model.evaluate_generator(*args, **kwargs)


def train_on_batch_tf1(model, x=None, *args, **kwargs):
    """`model.train_on_batch(x, ...)` with TF 1.x's rank-1 inputs."""
    return model.train_on_batch(standardized(model, x), *args, **kwargs)


def test_on_batch_tf1(model, x=None, *args, **kwargs):
    """`model.test_on_batch(x, ...)` with TF 1.x's rank-1 inputs."""
    return model.test_on_batch(standardized(model, x), *args, **kwargs)

