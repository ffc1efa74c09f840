"""TF 1.x Keras' per-row weights of `fit(x, y, class_weight=..., sample_weight=...)` on numpy arrays, one or
several outputs, for migrated code on Keras 3 or tf-keras.

TF 1.x mapped `class_weight` and `sample_weight` to the model's outputs (training_utils.
standardize_sample_or_class_weights: a dict by output name, a list in output order; with one output the
value itself) and turned each output's class weights into one weight per row of that output's labels,
times that output's sample weights (standardize_weights), before batching. Keras 3 and tf-keras take
`class_weight` for one output only, and not with `sample_weight` (Keras 3: "`class_weight` is only
supported for Models with a single output", "You cannot `class_weight` and `sample_weight` at the same
time"); both take per-output `sample_weight`, which is what `per_row` returns (in the structure of `y`).
Measured: tests/migrate/test_keras_fit_output_weights.py.
"""

from __future__ import annotations

from estimator_bridge.compat.keras_tf1_shuffle import class_sample_weights


def _outputs(y) -> list | None:
    """The labels of each output, in the order of `y` (a list/tuple) or None for a dict (keyed by name)."""
    return list(y) if isinstance(y, (list, tuple)) else None


def applicable(y, class_weight, sample_weight) -> bool:
    """Whether `per_row` stands for TF 1.x here: no class weights, or class weights over numpy labels of
    one output (an array) or several (a list, tuple or dict of arrays), sample weights arrays or a
    list / dict of them."""
    import numpy as np

    def arrays(value):
        if isinstance(value, dict):
            return bool(value) and all(v is None or isinstance(v, np.ndarray) for v in value.values())
        if isinstance(value, (list, tuple)):
            return bool(value) and all(v is None or isinstance(v, np.ndarray) for v in value)
        return isinstance(value, np.ndarray)

    if class_weight is None:
        return sample_weight is None or arrays(sample_weight)
    return arrays(y) and (sample_weight is None or arrays(sample_weight)) and isinstance(class_weight, (dict, list,
                                                                                                        tuple))


def _by_output(value, names: list, kind: str) -> list:
    """TF 1.x's standardize_sample_or_class_weights: one entry (or None) per output name."""
    if value is None or (isinstance(value, (list, tuple)) and len(value) == 0):
        return [None] * len(names)
    if len(names) == 1:
        if isinstance(value, (list, tuple)) and len(value) == 1:
            return list(value)
        if isinstance(value, dict) and names[0] in value:
            return [value[names[0]]]
        return [value]
    if isinstance(value, (list, tuple)):
        if len(value) != len(names):
            raise ValueError(f"Provided `{kind}` was a list of {len(value)} elements, but the model has "
                             f"{len(names)} outputs. You should provide one `{kind}`array per model output.")
        return list(value)
    if isinstance(value, dict):
        unknown = set(value) - set(names)
        if unknown:
            raise ValueError(f"Unknown entries in {kind} dictionary: {sorted(unknown, key=str)}. Only expected "
                             f"following keys: {names}")
        return [value.get(name) for name in names]
    raise TypeError(f"The model has multiple outputs, so `{kind}` should be either a list or a dict. Provided "
                    f"`{kind}` type not understood: {value}")


def in_output_order(model, y):
    """`y` a dict keyed by the model's output names as a tuple in output order (what TF 1.x's Keras fed;
    Keras 3 cannot match a dict of labels from a batch to a list of outputs), else `y` itself."""
    names = list(getattr(model, "output_names", None) or [])
    if isinstance(y, dict) and len(names) > 1 and set(y) == set(names):
        return tuple(y[name] for name in names)
    return y


def per_row(model, y, class_weight=None, sample_weight=None):
    """The per-row weights TF 1.x trained `model` with, in the structure Keras takes for `y`.

    One output (`y` an array): the class weights of its labels times `sample_weight` (or `sample_weight`
    alone). Several: a list (`y` a list/tuple, in its order) or dict (`y` a dict, by output name) with one
    weight array per output, ones for an output that has none, or None when no output has weights.
    """
    import numpy as np

    names = list(getattr(model, "output_names", None) or [])
    labels = _outputs(y)
    if labels is None and not isinstance(y, dict):   # one output: a class weight dict may be keyed by its name
        [classes], [samples] = (_by_output(value, names[:1] or ["output"], kind) for value, kind in
                                ((class_weight, "class_weight"), (sample_weight, "sample_weight")))
        return class_sample_weights(y, classes, samples)
    if labels is not None and len(names) != len(labels):
        names = [str(i) for i in range(len(labels))]   # no names to go by: TF 1.x's list order
    if labels is None:
        labels = [y[name] for name in names]
    classes = _by_output(class_weight, names, "class_weight")
    samples = _by_output(sample_weight, names, "sample_weight")
    weights = [None if cw is None and sw is None else class_sample_weights(label, cw, sw)
               for label, cw, sw in zip(labels, classes, samples)]
    if all(w is None for w in weights):
        return None
    weights = [np.ones(len(label)) if w is None else np.asarray(w) for label, w in zip(labels, weights)]
    return dict(zip(names, weights)) if isinstance(y, dict) else weights
