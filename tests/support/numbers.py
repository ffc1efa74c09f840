"""The suite's one numeric comparison: relative difference with a floor at the quantity's scale.

Every number a test holds against an oracle (or against another run) is compared by the rule of
the legacy-examples goldens (verify/compare.py, `relative_difference`):

    relative = |ours - expected| / max(|expected|, floor, scale)

where `scale` is the RMS of the tensor the element belongs to and `floor` (1e-3 unless a test
states another) keeps a quantity that is zero in exact arithmetic from turning a float32
rounding difference into a huge ratio. An element small by cancellation (a bias after many
updates, a logit near 0 among logits of size 3) is thus held to its tensor's scale, and a
tensor of values 1e-9 is held to 1e-9 * rtol / 1e-3 at most: an absolute tolerance (`atol`)
would let such values through unchecked, which is why no test uses one.

    assert_close(ours, expected, rtol=1e-6, what="dense/kernel")

Set NUMBERS_REPORT=1 (with `pytest -s`) to print every comparison's largest relative difference:
that is how the tolerances written in the tests and in docs/testing.md were measured.
"""

from __future__ import annotations

import math
import os

import numpy as np

from verify.compare import DEFAULT_FLOOR, relative_difference

__all__ = ["DEFAULT_FLOOR", "assert_close", "max_relative", "relative_differences"]


def _rms(values: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(values)))) if values.size else 0.0


def relative_differences(ours, expected, *, floor: float = DEFAULT_FLOOR) -> np.ndarray:
    """Element-wise `relative_difference` of two same-shaped arrays, the scale being the RMS of
    `expected` (NaN against NaN counts as equal, NaN against a number as infinitely far)."""
    ours = np.asarray(ours, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if ours.shape != expected.shape:
        raise AssertionError(f"shapes differ: ours {ours.shape}, expected {expected.shape}")
    finite = expected[np.isfinite(expected)]
    scale = max(floor, _rms(finite))
    return np.vectorize(relative_difference, otypes=[np.float64])(expected, ours, scale) \
        if expected.size else np.zeros(expected.shape)


def max_relative(ours, expected, *, floor: float = DEFAULT_FLOOR) -> float:
    differences = relative_differences(ours, expected, floor=floor)
    return float(differences.max()) if differences.size else 0.0


def assert_close(ours, expected, *, rtol: float, floor: float = DEFAULT_FLOOR,
                 what: str = "value") -> float:
    """Fail unless every element of `ours` is within `rtol` of `expected` (rule above); return
    the largest relative difference. The message names the worst element and both values."""
    differences = relative_differences(ours, expected, floor=floor)
    worst = float(differences.max()) if differences.size else 0.0
    if os.environ.get("NUMBERS_REPORT"):
        print(f"\n[numbers] {what}: max relative {worst:.3g} (rtol {rtol:g}, floor {floor:g})")
    if not worst <= rtol:  # also catches NaN
        index = np.unravel_index(int(np.nanargmax(np.where(np.isnan(differences), math.inf,
                                                           differences))), differences.shape)
        ours_value = float(np.asarray(ours, dtype=np.float64)[index])
        expected_value = float(np.asarray(expected, dtype=np.float64)[index])
        bad = int(np.sum(~(differences <= rtol)))
        raise AssertionError(
            f"{what}: {bad} of {differences.size} element(s) differ by more than rtol {rtol:g} "
            f"(floor {floor:g}); worst at {tuple(int(i) for i in index)}: ours "
            f"{ours_value!r}, expected {expected_value!r}, relative {worst:.3g}")
    return worst
