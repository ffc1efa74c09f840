"""TF 1.x Keras' evaluation loss over generators, Sequences and datasets, and its training loss on a
dataset: the mean of the step losses.

TF 1.x's Keras evaluated a generator, a `Sequence` or a dataset (`evaluate_generator`, `evaluate(gen,
steps=N)`, `fit(..., validation_data=gen)`) step by step and reported the *unweighted* mean of the N
step losses (each step's mean loss counted once, a short last batch as much as a full one); numpy
arrays and the stateful metrics (`mae`, `acc`) were averaged over samples. Keras 3 and tf-keras weigh
every step's loss by its batch size. Measured, 10 rows in batches of 4 (4, 4, 2): TF 1.15 evaluates
0.30565 where Keras 3 and tf-keras give 0.31634 (tests/migrate/test_keras_step_mean_losses.py).

`step_mean_losses(model)` makes the model's evaluation loss trackers (Keras 3's and tf-keras' `Mean`s
of the total and per-output losses, which take the batch size as the sample weight) count each step
once while it is active: the test step is traced again inside it, and once more after it, so that
the model's later evaluations on arrays keep their per-sample mean. `train=True` does the same for
the training step: TF 1.15's fit on a tf.data dataset (with steps_per_epoch or not) reported the mean
of the step losses too (0.65867 on 10 rows in batches of 4, 4, 2 where Keras 3 and tf-keras give
0.73885); on arrays, generators and Sequences it reported them per sample (measured equal).
"""

from __future__ import annotations

import contextlib
import functools


def per_step(data) -> bool:
    """Whether TF 1.x's Keras averaged the evaluation loss of `data` over steps: anything fed step by
    step (a generator, a Sequence, a dataset or iterator), not numpy arrays or tensors given whole."""
    import numpy as np

    if data is None or isinstance(data, (np.ndarray, list, tuple, dict)) or hasattr(data, "__array__"):
        return False
    if hasattr(data, "shape") and hasattr(data, "dtype"):   # a tensor
        return False
    return True


def _loss_means(model) -> list:
    """The Mean metrics a test step updates with batch-size weights: Keras 3's loss tracker and per-output
    loss means, tf-keras' total and per-output loss means."""
    means = []
    tracker = getattr(model, "_loss_tracker", None)          # Keras 3
    if tracker is not None:
        means.append(tracker)
    compile_loss = getattr(model, "_compile_loss", None)
    if compile_loss is not None:
        means += [metric for metric in getattr(compile_loss, "metrics", ()) if type(metric).__name__ == "Mean"]
    compiled_loss = getattr(model, "compiled_loss", None)    # tf-keras
    if compiled_loss is not None and hasattr(compiled_loss, "_total_loss_mean"):
        means.append(compiled_loss._total_loss_mean)
        means += [metric for metric in (getattr(compiled_loss, "_per_output_metrics", None) or []) if metric is not None]
    return means


@contextlib.contextmanager
def _unweighted(means):
    """While active (when the test step is traced), the means ignore their sample weights."""
    for mean in means:
        original = mean.update_state

        @functools.wraps(original)
        def update_state(values, sample_weight=None, _original=original):
            return _original(values)

        mean.__dict__["update_state"] = update_state
    try:
        yield
    finally:
        for mean in means:
            mean.__dict__.pop("update_state", None)


def _forget_step_functions(model, steps) -> None:
    for step in steps:
        for name in (f"{step}_function", f"_{step}_function"):
            if getattr(model, name, None) is not None:
                setattr(model, name, None)


@contextlib.contextmanager
def step_mean_losses(model, train=False, test=True):
    """Within: the model's evaluations (`test`) and/or its training (`train`) report TF 1.x's mean of the
    step losses (see the module)."""
    steps = [step for step, chosen in (("train", train), ("test", test)) if chosen]
    for step in steps:
        original = getattr(model, f"{step}_step")

        @functools.wraps(original)
        def step_mean_step(data, _original=original):
            with _unweighted(_loss_means(model)):
                return _original(data)

        model.__dict__[f"{step}_step"] = step_mean_step
    _forget_step_functions(model, steps)
    try:
        yield
    finally:
        for step in steps:
            model.__dict__.pop(f"{step}_step", None)
        _forget_step_functions(model, steps)
