"""tests/support/numbers.py: the suite's one numeric comparison, shown on small examples."""

import math

import numpy as np
import pytest

from tests.support.numbers import assert_close, max_relative


def test_an_element_is_measured_against_its_tensors_scale():
    # 1e-6 off a value of 0.001 inside a tensor of RMS ~2: relative to 2, not to 0.001.
    expected = np.array([0.001, 2.0, -2.5, 2.2])
    ours = expected + np.array([1e-6, 0.0, 0.0, 0.0])
    scale = math.sqrt(np.mean(expected ** 2))
    assert max_relative(ours, expected) == pytest.approx(1e-6 / scale)
    assert_close(ours, expected, rtol=1e-6)


def test_values_near_zero_are_not_unchecked():
    # A tensor of 1e-9 values: the floor 1e-3 makes a 1e-9 difference 1e-6 relative, and a
    # 1e-8 one (ten times the values) fails, where atol=1e-6 would have passed it.
    expected = np.array([2.5e-9, -1.5e-9, -1.7e-9])
    assert_close(expected + 1e-9, expected, rtol=1e-6)
    with pytest.raises(AssertionError, match=r"3 of 3 element\(s\) differ by more than rtol 1e-06"):
        assert_close(expected + 1e-8, expected, rtol=1e-6)


def test_the_message_names_the_worst_element():
    with pytest.raises(AssertionError, match=r"kernel: 1 of 4 .* worst at \(1, 0\): ours 5\.0, "
                                             r"expected 4\.0"):
        assert_close([[1.0, 2.0], [5.0, 3.0]], [[1.0, 2.0], [4.0, 3.0]], rtol=1e-6, what="kernel")


def test_nan_equals_only_nan_and_shapes_must_agree():
    assert_close([1.0, math.nan], [1.0, math.nan], rtol=0.0)
    with pytest.raises(AssertionError, match="relative inf"):
        assert_close([1.0, 2.0], [1.0, math.nan], rtol=1.0)
    with pytest.raises(AssertionError, match="shapes differ"):
        assert_close([1.0], [1.0, 2.0], rtol=1.0)
