"""Comparing two checkpoint summaries the real-pattern programs print (`variables`: name -> shape,
first values, L2 norm), as the Keras-in-model_fn oracle tests do."""

from __future__ import annotations

import numpy as np


def largest_difference(actual: dict, expected: dict) -> tuple[float, str]:
    """(largest difference relative to the variable's RMS, variable name) over the checkpoint.

    Per variable: its first values and its norm, each against the expected ones, over the
    variable's RMS (floor 1e-6), so a small element is held to its tensor's scale.
    """
    worst = (0.0, "")
    for name, want in expected["variables"].items():
        got = actual["variables"][name]
        assert got["shape"] == want["shape"], name
        scale = max(want["norm"] / np.sqrt(max(np.prod(want["shape"]), 1)), 1e-6)
        difference = max(np.max(np.abs(np.subtract(got["first"], want["first"])), initial=0.0),
                         abs(got["norm"] - want["norm"])) / scale
        worst = max(worst, (float(difference), name))
    return worst
