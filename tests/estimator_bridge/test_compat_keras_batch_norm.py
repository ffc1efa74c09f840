"""Keras 2's batch-norm moving variance on Keras 3 (estimator_bridge/compat/keras_batch_norm.py; oracle test).

Found on training-data-analyst's keras_flowers_gputputpupod_tf2.1.ipynb (68ccb3f7a) at 32x32: with
a learning rate of 0 its val_loss was 4.0e-3 apart from TF 2.15 (training losses 8e-7): TF 1.15's
and TF 2.15's fused batch norm averaged the Bessel-corrected batch variance into the moving
variance on 4-D inputs, Keras 3 the biased one. tests/estimator_bridge/programs/
keras_batch_norm_moving_variance.py: moving statistics, losses and evaluation after two epochs.
Measured against TF 1.15: TF 2.15's moving statistics 2.0e-6 apart (its own kernels), the
bridge's class 9.5e-7 and the same evaluation; plain Keras 3 4.2e-3 apart, evaluation 1.2e-5.
"""

from pathlib import Path

import numpy as np
import pytest

from tests.support.oracles import oracle_python, run_current_json, run_json

PROGRAM = Path(__file__).parent / "programs" / "keras_batch_norm_moving_variance.py"

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def tf115():
    result = run_json(oracle_python("tf115"), PROGRAM)
    assert result["tensorflow"].startswith("1.15")
    return result


def _moving_rtol(ours, oracle):
    return max(float(np.max(np.abs(np.subtract(a, b)) / np.abs(a))) for a, b in zip(oracle["moving"], ours["moving"]))


def _same(ours, oracle):
    assert len(ours["moving"]) == len(oracle["moving"]) == 6
    assert _moving_rtol(ours, oracle) < 2e-6  # TF 2.15 against TF 1.15: 2.0e-6 (measured)
    np.testing.assert_allclose(ours["loss"], oracle["loss"], rtol=1e-6)
    assert ours["evaluate"] == pytest.approx(oracle["evaluate"], rel=1e-6)


def test_the_bridge_class_keeps_tf1s_moving_statistics(tf115):
    _same(run_current_json(PROGRAM, "--bridge-class"), tf115)


def test_the_runner_gives_every_batch_norm_tf1s_moving_statistics(tf115):
    _same(run_current_json("-m", "estimator_bridge.run", str(PROGRAM)), tf115)


def test_plain_keras_3_averages_the_biased_variance(tf115):
    """Pins why the class exists."""
    assert _moving_rtol(run_current_json(PROGRAM), tf115) > 1e-3
