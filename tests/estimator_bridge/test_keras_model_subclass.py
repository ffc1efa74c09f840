"""A tf.keras.Model subclass in a model_fn keeps TF 1.15's checkpoint names (oracle test).

tensorflow/tpu's EfficientNet and MnasNet (2019-2020) build a `tf.keras.Model` subclass whose
`call` runs Keras Layer blocks (`block.call(...)` inside `tf.variable_scope('blocks_%d')`), with a
`tf.keras.layers.DepthwiseConv2D` mixed with `tf.layers.Layer`, tf.layers objects and a Keras
Dropout. Keras 3 built such a model all at once under the model's name scope, so every Keras
weight became `efficientnet-b0/model/kernel`, `kernel_1`, ... (64 names of EfficientNet-B0),
the Dropout added a `seed_generator_state`, and neither TF 1.15 model_dirs nor released
checkpoints loaded (runtime/keras_names.py says how each difference is undone).

`real_patterns/keras_model_subclass.py` reproduces each of those on a small model. TF 1.15 writes
a model_dir; the same program resumes it on TF 1.15, under the runner and after estimator-migrate.
Every side must read and write exactly TF 1.15's names and reach its numbers.

Tolerances, measured (TF 2.21 vs TF 1.15, CPU, 2 more Momentum steps from TF 1.15's step 2):
eval loss identical (0 difference) on both sides; variables within 5.4e-6 of their RMS, the
largest in `netname/net/stem/conv2d/kernel/Momentum` (3.6e-6 with TF_ENABLE_ONEDNN_OPTS=0): the
stem convolution's filter gradient sums 288 products per element, in TF 2.21's order rather than
TF 1.15's (the same effect as test_keras_layers_in_model_fn's 1.9e-6 on its smaller convolutions).
Held to 1e-5 (variables) and 1e-6 (eval loss).
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from tests.support.checkpoint_summary import largest_difference
from tests.support.oracles import REPO_ROOT
from tests.support.three_sides import run_side

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "real_patterns" / "keras_model_subclass.py"
# TF 1.15's names, read off its checkpoint (the program's docstring says why each is so).
TF115_NAMES = {
    "global_step",
    "netname/blocks_0/depthwise_conv2d/depthwise_kernel", "netname/blocks_1/se/dense/kernel",
    "netname/net/blocks_0/conv2d_1/kernel", "netname/net/blocks_1/conv2d_2/kernel",
    "netname/net/head/dense_2/kernel", "netname/net/stem/conv2d/bias",
    "netname/net/head/dense_2/kernel/Momentum",
}
RTOL = 1e-6
VARIABLE_RTOL = 1e-5  # measured 5.4e-6: a convolution's filter gradient, see above


def _run(side, args, folder):
    result = run_side(side, PROGRAM, args, folder)
    assert result.returncode == 0, f"{side}:\n{result.stderr[-4000:]}"
    return result.result


@pytest.fixture(scope="module")
def tf115_model_dirs(tmp_path_factory):
    """{dropout rate: a model_dir TF 1.15 trained to step 2}."""
    written = {}
    for rate in ("0", "0.3"):
        folder = tmp_path_factory.mktemp(f"tf115_dropout_{rate}")
        result = _run("oracle", [f"--model_dir={folder / 'model'}", "--train_steps=2",
                                 f"--dropout={rate}"], folder)
        assert TF115_NAMES <= set(result["variables"]), sorted(result["variables"])
        written[rate] = folder / "model"
    return written


@pytest.mark.parametrize("side", ["runner", "migrated"])
def test_a_tf115_model_dir_of_a_keras_model_subclass_resumes_with_tf115_s_names_and_numbers(
        tf115_model_dirs, side, tmp_path):
    expected_dir, actual_dir = tmp_path / "oracle_resumed", tmp_path / f"{side}_resumed"
    shutil.copytree(tf115_model_dirs["0"], expected_dir)
    shutil.copytree(tf115_model_dirs["0"], actual_dir)
    expected = _run("oracle", [f"--model_dir={expected_dir}", "--train_steps=4"], tmp_path)
    actual = _run(side, [f"--model_dir={actual_dir}", "--train_steps=4"], tmp_path)
    assert expected["global_step"] == actual["global_step"] == 4
    assert sorted(actual["variables"]) == sorted(expected["variables"]), side
    difference, name = largest_difference(actual, expected)
    print(f"{side}: variables {difference:.2e} ({name}), eval loss "
          f"{abs(actual['eval_loss'] - expected['eval_loss']) / abs(expected['eval_loss']):.2e}")
    assert difference <= VARIABLE_RTOL, (side, name, difference)
    np.testing.assert_allclose(actual["eval_loss"], expected["eval_loss"], rtol=RTOL, err_msg=side)


def test_keras_dropout_adds_no_variable_to_the_checkpoint(tf115_model_dirs, tmp_path):
    """Keras 3's Dropout keeps a SeedGenerator state; TF 1.15's had none. The runner resumes
    TF 1.15's model_dir (it would fail on a variable the checkpoint lacks) and writes TF 1.15's
    set of names. Dropout is random on both sides, so only names are compared."""
    actual_dir = tmp_path / "runner_resumed"
    shutil.copytree(tf115_model_dirs["0.3"], actual_dir)
    actual = _run("runner", [f"--model_dir={actual_dir}", "--train_steps=4", "--dropout=0.3"],
                  tmp_path)
    expected = _run("oracle", [f"--model_dir={tmp_path / 'oracle'}", "--train_steps=2",
                               "--dropout=0.3"], tmp_path)
    assert actual["global_step"] == 4
    assert sorted(actual["variables"]) == sorted(expected["variables"])
