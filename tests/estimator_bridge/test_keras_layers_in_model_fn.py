"""tf.keras layers inside a TPUEstimator model_fn keep TF 1.15's checkpoint names (oracle test).

TF 1.15 writes a model_dir from `real_patterns/keras_layers_model_fn.py` (Keras Conv2D/Dense
layers in the model_fn, Adam); the same program then resumes it on TF 1.15, under the runner and
after estimator-migrate, and warm-starts from it. Every side must read the TF 1.15 names
(`conv2d_1/kernel`, `dense/bias/Adam`), write the same set, and reach the same numbers.

Tolerances, measured (TF 2.21 vs TF 1.15, CPU): after 4 resumed steps the variables differ by at
most 1.92e-6 of their RMS (resume, runner and migrated: `conv2d_1/kernel/Adam_1`; warm start
1.68e-6: Adam's second moment, float32 rounding of TF 1.15's fused ApplyAdam against the
bridge's ops), weights and first moments below 1e-6; eval losses identical (warm start 6.5e-8).
Held to 5e-6 (variables) and 1e-6 (eval loss).

Not covered: a tf.keras BatchNormalization in a model_fn. TF 1.15 never ran its moving-average
updates there (Keras kept them in `layer.updates`, outside UPDATE_OPS: the moving mean stays 0);
Keras 3 assigns them in the call, so eval numbers differ (measured: eval loss 0.96658 vs 0.96693
with the program's --batch_norm). Names and every trained variable still match.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from tests.support.checkpoint_summary import largest_difference
from tests.support.oracles import REPO_ROOT
from tests.support.three_sides import run_side

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "real_patterns" / "keras_layers_model_fn.py"
RTOL = 1e-6
VARIABLE_RTOL = 5e-6
TF115_NAMES = {"conv2d/kernel", "conv2d/bias", "conv2d_1/kernel", "conv2d_1/bias", "dense/kernel",
               "dense/bias", "dense_1/kernel", "dense_1/bias", "conv2d_1/kernel/Adam", "dense/bias/Adam_1",
               "beta1_power", "global_step"}


def _run(side, args, tmp_path):
    result = run_side(side, PROGRAM, args, tmp_path)
    assert result.returncode == 0, f"{side}:\n{result.stderr[-4000:]}"
    return result.result


def assert_same_checkpoint(actual, expected, where):
    assert sorted(actual["variables"]) == sorted(expected["variables"]), where
    assert actual["global_step"] == expected["global_step"], where
    difference, name = largest_difference(actual, expected)
    print(f"{where}: variables {difference:.2e} ({name}), eval loss "
          f"{abs(actual['eval_loss'] - expected['eval_loss']) / abs(expected['eval_loss']):.2e}")
    assert difference <= VARIABLE_RTOL, (where, name, difference)
    np.testing.assert_allclose(actual["eval_loss"], expected["eval_loss"], rtol=RTOL, err_msg=where)


@pytest.fixture(scope="module")
def tf115_model_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tf115_written")
    written = _run("oracle", [f"--model_dir={folder / 'model'}", "--train_steps=4"], folder)
    assert TF115_NAMES <= set(written["variables"])
    return folder / "model"


@pytest.mark.parametrize("side", ["runner", "migrated"])
def test_a_tf115_model_dir_resumes_with_the_same_names_and_numbers(tf115_model_dir, side, tmp_path):
    expected_dir, actual_dir = tmp_path / "oracle_resumed", tmp_path / f"{side}_resumed"
    shutil.copytree(tf115_model_dir, expected_dir)
    shutil.copytree(tf115_model_dir, actual_dir)
    expected = _run("oracle", [f"--model_dir={expected_dir}", "--train_steps=8"], tmp_path)
    actual = _run(side, [f"--model_dir={actual_dir}", "--train_steps=8"], tmp_path)
    assert expected["global_step"] == 8
    assert_same_checkpoint(actual, expected, side)


@pytest.mark.parametrize("side", ["runner", "migrated"])
def test_keras_layers_on_input_of_the_features_tensor_as_in_tensorflow_tpu_cifar_keras(
        tf115_model_dir, side, tmp_path):
    """`layers = tf.contrib.keras.layers; v = layers.Input(tensor=features)`: TF 1.15 returned
    the features tensor, Keras 3's Input raises on it; the runner serves tf.contrib.keras and
    both sides read Input(tensor=...) as TF 1.x did (estimator_bridge/compat/keras_input.py)."""
    expected_dir, actual_dir = tmp_path / "oracle_resumed", tmp_path / f"{side}_resumed"
    shutil.copytree(tf115_model_dir, expected_dir)
    shutil.copytree(tf115_model_dir, actual_dir)
    args = ["--train_steps=8", "--contrib_input"]
    expected = _run("oracle", [f"--model_dir={expected_dir}", *args], tmp_path)
    actual = _run(side, [f"--model_dir={actual_dir}", *args], tmp_path)
    assert_same_checkpoint(actual, expected, side)


def test_warm_start_from_a_tf115_model_dir(tf115_model_dir, tmp_path):
    args = [f"--warm_start_from={tf115_model_dir}", "--train_steps=4"]
    expected = _run("oracle", [f"--model_dir={tmp_path / 'oracle'}", *args], tmp_path)
    actual = _run("runner", [f"--model_dir={tmp_path / 'runner'}", *args], tmp_path)
    assert_same_checkpoint(actual, expected, "warm start")
