"""Keras 2's batch-norm outputs and gradients on Keras 3 (estimator_bridge/compat/keras_batch_norm.py; oracle test).

Found on training-data-analyst's keras_flowers_gputputpupod_tf2.1.ipynb (68ccb3f7a, test bed
tda_flowers_tpustrategy_tf21): from TF 2.15's start weights the migrated notebook's first loss
equalled TF 2.15's, the second was 4.6e-3 off where TF 2.15 repeats itself within 1.6e-5. Keras 3's
batch-norm arithmetic rounds otherwise than the fused kernel TF 2.x's Keras ran: one activation
of a fire module, 1.4e-6 before its ReLU in TF 2.15, was <= 0 in Keras 3, so one channel's
gradients changed (beta 1.3e-3 against -1.1e-3). With the kernel the compat class computes what
TF 2.15 computes. tests/estimator_bridge/programs/keras_batch_norm_gradients.py: gradients of one
batch and three SGD steps. Measured against TF 2.15 (oneDNN off on both): on AMD EPYC family 25
the bridge's class bit-identical, plain Keras 3 5.4e-7 apart in the gradients; on family 26 (AVX-512
VP2INTERSECT) the two TensorFlows' kernels round otherwise, so the gradients are not bit-identical
there (the bridge's class 9.1e-7 apart at most, on a convolution bias feeding the batch norm, whose
gradient cancels to 3.6e-7; 4e-6 of the largest gradient, 0.22) while its loss and three step
losses stay bit-identical to TF 2.15's and plain Keras 3's three step losses do not.
"""

from pathlib import Path

import numpy as np
import pytest

from tests.support.oracles import oracle_python, run_current_json, run_json

PROGRAM = Path(__file__).parent / "programs" / "keras_batch_norm_gradients.py"

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def tf215():
    result = run_json(oracle_python("tf215"), PROGRAM)
    assert result["tensorflow"].startswith("2.15")
    return result


def _gradient_difference(ours, oracle):
    assert len(ours["gradients"]) == len(oracle["gradients"]) == 8
    return max(float(np.max(np.abs(np.subtract(a, b)))) for a, b in zip(oracle["gradients"], ours["gradients"]))


def _largest_gradient(result):
    return max(float(np.max(np.abs(gradient))) for gradient in result["gradients"])


def test_the_bridge_class_computes_tf2s_batch_norm_gradients(tf215):
    ours = run_current_json(PROGRAM, "--bridge-class")
    # the same kernel: bit-identical on one CPU family, within kernel rounding on another (docstring)
    assert _gradient_difference(ours, tf215) <= 1e-5 * _largest_gradient(tf215)
    assert ours["loss"] == tf215["loss"]
    assert ours["losses"] == tf215["losses"]


def test_plain_keras_3_rounds_batch_norm_otherwise(tf215):
    """Pins why the class runs the kernel."""
    plain = run_current_json(PROGRAM)
    assert _gradient_difference(plain, tf215) > 1e-8
    assert plain["losses"] != tf215["losses"]
