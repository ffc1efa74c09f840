"""estimator_bridge.layers computes what TF 1.15's tf.layers computed: names, shapes, numbers.

`goldens/layers_recorder.py` builds the same small models (dense, conv1d/2d, transposed conv,
pooling, flatten, dropout, batch norm in every mode) on fixed numpy inputs and initializers,
runs the forward pass, one gradient-descent step under `control_dependencies(UPDATE_OPS)`, and
tensors built after that step (batch norm in inference mode). `goldens/layers_tf115.json` is
that program run on TF 1.15 (oracle A), recorded from two identical runs by `python -m
tests.estimator_bridge.goldens.record layers`; the oracle test below runs it again live.

Here the recorder runs on current TensorFlow in a subprocess, three times: in a `tf.compat.v1`
Graph + Session; traced by `tf.function(autograph=False)` through the bridge core's variable cache
with per-trace v1 collections (how the bridge runs a model_fn); and that again under the compat
runner's TF 1.15 switches (v1 TensorShape, v1 Tensor equality).

Tolerance: rtol 1e-6 by the suite's one comparison (tests/support/numbers.py: relative to
max(|value|, 1e-3, the RMS of its tensor)). Measured against TF 1.15 with TF_ENABLE_ONEDNN_OPTS=0
(set for the subprocesses, as docs/testing.md explains), 2026-11-23: at most 1.6e-7 (dense_rank3
outputs), batch-norm and dropout outputs bit-identical. One element is small by cancellation
and measured against the terms it sums (SUMMED_SCALE below): the one-element bias of
conv2d_transpose's `valid` layer after one step is -lr * 2 * mean(outputs), a mean of 56
outputs of RMS 0.44 that comes to -0.007; its float32 summation order differs by 1.5e-9
(1.07e-6 of the value, 1.7e-8 of the summed terms' scale). layer_objects' batch norm over a batch
of 2 is small by cancellation too: each output is x * inv - mean * inv, terms up to 21 in size
(SUMMED_SCALE below); TF 1.15 itself moves it by 1.9e-6 from one CPU to another.
Names, shapes, trainability and the number of UPDATE_OPS must be identical.
"""

import json
import os

import numpy as np
import pytest

from tests.support.goldens import recorded_here, without_machine
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

GOLDENS = REPO_ROOT / "tests" / "estimator_bridge" / "goldens"
RECORDER = GOLDENS / "layers_recorder.py"
GOLDEN_FILE = GOLDENS / "layers_tf115.json"
RTOL = 1e-6

with open(GOLDEN_FILE) as golden_stream:
    GOLDEN = json.load(golden_stream)
CASES = sorted(GOLDEN["cases"])
LEARNING_RATE = 0.1  # layers_recorder.LEARNING_RATE


def _rms(values):
    return float(np.sqrt(np.mean(np.square(values))))


def _batch_norm_terms_rms(inputs, outputs):
    """RMS of x * inv, the terms a batch norm over a batch of 2 sums (x * inv - mean * inv, inv =
    gamma / sqrt(var + eps)): x - mean is +-(x0 - x1) / 2, so |x * inv| = |x * out / (x - mean)|."""
    inputs = np.reshape(inputs, (2, -1))
    return _rms(inputs * np.asarray(outputs) / (inputs - inputs.mean(axis=0)))


# (case, tensor) -> floor: elements that are sums small by cancellation, measured against the
# scale of the terms summed (docstring).
LAYER_OBJECTS = GOLDEN["cases"]["layer_objects"]["outputs"]
# layer_objects' batch norm of the flattened max-pooled conv outputs over a batch of 2: each output
# is x * inv - mean * inv, and where x0 and x1 are close the terms are far larger than their
# difference (column 10: x = 1.2449, 1.2309, terms -13.66 and -13.58, output +-0.0771, a
# cancellation of 177x). The conv's last bit moves with the CPU (TF 1.15's own conv2d): measured on
# an AMD EPYC (AVX2/FMA, no AVX-512), 2026-11-27, TF 1.15 live and the bridge (graph, tf.function,
# Grappler on or off) all give pooled[1, 10] = 1.2308750 where the golden has 1.2308751 (1 ulp),
# and normalized[1, 10] = 0.07710648 against the golden's 0.07710457: 1.9e-6, two ulps of the
# 13.5-sized terms (numpy float32 x * inv - mean * inv reproduces both values from each pooled).
# Same unfused moments + batch_normalization ops on both TensorFlows (a 2-D input is not fused).
# Held against the RMS of the terms, 7.35 (measured 2.6e-7 of it).
NORMALIZED_TERMS = _batch_norm_terms_rms(LAYER_OBJECTS["pooled"], LAYER_OBJECTS["normalized"])
SUMMED_SCALE = {
    ("conv2d_transpose", "conv2d_transpose_1/bias"):
        2 * LEARNING_RATE * _rms(GOLDEN["cases"]["conv2d_transpose"]["outputs"]["valid"]),
    ("layer_objects", "normalized"): NORMALIZED_TERMS,
    # layer_objects' batch norm over a batch of 2: beta's gradient is sum_i 2 * normalized_ij / 24
    # (loss mean(normalized**2) over 2x12), and sum_i xhat_ij is exactly 0, so beta after one
    # step is float32 noise around 0 (TF 1.15's golden: 1.1e-9, 0, -1.0e-9, ...). Measured on an
    # AMD EPYC (AVX-512) machine, 2026-11-24, at 196442e already: beta[0] -7.5e-10 against
    # 1.1e-9 (1.9e-9 absolute). On the AVX2 EPYC above, 2026-11-27: beta[10] 0 (TF 1.15 live as
    # well) against the golden's 1.59e-8 = -lr * 2 * (-1.9e-6) / 24, the normalized pair's
    # asymmetry above. Held against the scale of the terms summed, lr * 2 * NORMALIZED_TERMS / 24
    # = 0.061 (measured 2.6e-7 of it).
    ("layer_objects", "batch_normalization/beta"): LEARNING_RATE * 2 * NORMALIZED_TERMS / 24,
}


def current_tf_env():
    env = oracle_env()
    env["TF_ENABLE_ONEDNN_OPTS"] = "0"
    env["PYTHONPATH"] = str(REPO_ROOT)
    return env


@pytest.fixture(scope="module", params=[
    pytest.param(("bridge-graph",), marks=pytest.mark.slow),
    ("bridge-function",), ("bridge-function", "--tf1-behavior")],
    ids=["graph", "function", "function-under-tf1-behavior"])
def recorded(request):
    return run_json(current_python(), RECORDER, *request.param, env=current_tf_env(),
                    cwd=REPO_ROOT)


def test_golden_comes_from_tf_1_15():
    assert GOLDEN["tensorflow"] == "1.15.0"
    assert GOLDEN["flavour"] == "tf115"
    assert len(CASES) >= 15


def test_every_golden_case_was_recorded(recorded):
    assert sorted(recorded["cases"]) == CASES


@pytest.mark.parametrize("case", CASES)
def test_variable_names_shapes_and_trainability_match(recorded, case):
    golden, ours = GOLDEN["cases"][case], recorded["cases"][case]
    assert ours["variables"] == golden["variables"]
    assert ours["trainable"] == golden["trainable"]


@pytest.mark.parametrize("case", CASES)
def test_update_ops_match(recorded, case):
    assert recorded["cases"][case]["update_ops"] == GOLDEN["cases"][case]["update_ops"]


def assert_same_values(golden_values, our_values, what, case):
    assert sorted(our_values) == sorted(golden_values), what
    for key, golden_value in golden_values.items():
        expected, actual = np.asarray(golden_value), np.asarray(our_values[key])
        assert actual.shape == expected.shape, f"{what}[{key}]"
        assert_close(actual, expected, rtol=RTOL, floor=SUMMED_SCALE.get((case, key), 1e-3),
                     what=f"{what}[{key}]")


@pytest.mark.parametrize("case", CASES)
def test_forward_outputs_match(recorded, case):
    golden, ours = GOLDEN["cases"][case], recorded["cases"][case]
    assert_same_values(golden["outputs"], ours["outputs"], f"{case} outputs", case)
    assert_close(ours["regularization"], golden["regularization"], rtol=RTOL,
                 what=f"{case} regularization")


def assert_same_case(golden, ours, case):
    """Everything the tests above compare for one case, at the bridge's tolerances."""
    for key in ("variables", "trainable", "update_ops"):
        assert ours[key] == golden[key], f"{case} {key}"
    assert_same_values(golden["outputs"], ours["outputs"], f"{case} outputs", case)
    assert_close(ours["regularization"], golden["regularization"], rtol=RTOL,
                 what=f"{case} regularization")
    assert_same_values(golden["after_step"], ours["after_step"], f"{case} after one step", case)
    assert_same_values(golden["after"], ours["after"], f"{case} tensors after the step", case)


@pytest.mark.parametrize("case", CASES)
def test_variables_after_one_training_step_match(recorded, case):
    golden, ours = GOLDEN["cases"][case], recorded["cases"][case]
    assert_same_values(golden["after_step"], ours["after_step"], f"{case} after one step", case)
    assert_same_values(golden["after"], ours["after"], f"{case} tensors after the step", case)


def test_the_golden_exercises_what_it_claims():
    """Guards the golden itself: batch norm updates really moved, dropout really dropped."""
    fused = GOLDEN["cases"]["batch_norm_fused"]
    assert fused["update_ops"] == 2
    assert np.any(np.asarray(fused["after_step"]["batch_normalization/moving_mean"]) != 0)
    assert GOLDEN["cases"]["batch_norm_inference"]["update_ops"] == 0
    dropped = np.asarray(GOLDEN["cases"]["dropout"]["outputs"]["dropped"])
    assert 0 < np.count_nonzero(dropped == 0) < dropped.size
    assert len(GOLDEN["cases"]["dense"]["regularization"]) == 2
    layer_norm = GOLDEN["cases"]["layer_norm"]
    assert np.any(np.asarray(layer_norm["after_step"]["LayerNorm/gamma"]) != 1.0)
    assert "frozen/beta" not in layer_norm["trainable"]


@pytest.mark.oracle
def test_golden_is_what_tf_1_15_records_now():
    live = run_json(oracle_python("tf115"), RECORDER, "tf115", cwd=REPO_ROOT)
    assert live["tensorflow"] == "1.15.0"
    if not recorded_here(GOLDEN):  # another CPU: TF 1.15's own last bits move (support/goldens.py)
        assert sorted(live["cases"]) == CASES
        for case in CASES:
            assert_same_case(GOLDEN["cases"][case], live["cases"][case], case)
        return
    assert live == without_machine(GOLDEN), (
        "oracle A no longer records goldens/layers_tf115.json; if the recorder changed on "
        "purpose, re-record it: python -m tests.estimator_bridge.goldens.record layers")
