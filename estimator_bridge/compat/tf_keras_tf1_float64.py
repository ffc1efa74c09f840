"""The loss TF 1.x Keras' loops returned (evaluate, fit's history): a float64, for the runner's tf-keras in graph mode.

TF 1.x's Keras loops (and tf-keras' v1 loops, which the runner runs TF 1.x Keras programs with: compat/
legacy_keras.py) sum each step's loss, a numpy float32, into `0.0` and divide by the samples or steps.
Under NumPy 1.x, which TF 1.15 ran on, a float32 scalar met with a Python number gave a float64, so
`evaluate` returned `numpy.float64`, a subclass of Python's float (`json.dumps` takes it), summed in
float64. NumPy 2 keeps the float32: the runner's `evaluate` returned `numpy.float32`, which `json.dumps`
refuses ("Object of type float32 is not JSON serializable"). Here the step losses enter that sum as
float64, as they did then; the metrics stay what both give (float32, the metric's value).
"""

from __future__ import annotations


def install() -> None:
    """Make tf-keras' v1 loops sum the loss in float64 (idempotent)."""
    import numpy as np
    from tf_keras.src.engine import training_utils_v1

    aggregator = training_utils_v1.MetricsAggregator
    if getattr(aggregator.aggregate, "_tf1_float64", False):
        return
    original = aggregator.aggregate

    def aggregate(self, batch_outs, *args, **kwargs):
        if batch_outs:
            batch_outs = [np.float64(batch_outs[0]), *batch_outs[1:]]
        return original(self, batch_outs, *args, **kwargs)

    aggregate._tf1_float64 = True
    aggregator.aggregate = aggregate
