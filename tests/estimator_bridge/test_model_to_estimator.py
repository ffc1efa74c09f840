"""model_to_estimator under the compat runner gives TF 1.15's and TF 2.15's numbers (oracle tests).

`real_patterns/keras_model_to_estimator.py` (a compiled tf.keras model of the 2018-2020 tutorials,
fixed start weights, `tf.keras.estimator.model_to_estimator(keras_model=model, config=config)`,
train 12 steps, evaluate, predict) runs unchanged on TF 1.15, on TF 2.15 + tf-estimator-nightly
and under the runner, in two forms: a Sequential model with Adam, and a functional one with an L2
kernel regularizer and SGD with momentum, and TensorFlow's 2019 tutorial model (one sigmoid unit under
categorical_crossentropy, class ids as labels: TF 2.x's Keras squeezed the output to the labels'
rank, TF 1.15's expanded the labels, so their losses differ: 12.53 and 7.2e-7 at step 1), features
keyed by the input layer's name.

Before estimator_bridge/keras_estimator.py the runner refused `tf.keras.estimator.model_to_estimator`.
Measured (TF 2.21 vs TF 1.15 and TF 2.15, CPU, oneDNN off): the 12 step losses and the evaluation
are identical; predictions differ by at most 1.9e-7 relative (float32 rounding of the softmax);
the trained variables, read under TF 1.15's checkpoint names (`dense/kernel`,
`training/Adam/dense/kernel/m`, `training/SGD/hidden/kernel/momentum`), by at most 7.4e-6
relative (the functional form's SGD momentum, an entry near 0; Adam's 3.1e-7).
Held to 1e-6 (losses, evaluation, predictions, atol 1e-7) and 1e-5 (variables, atol 1e-7).
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python, run_json, run_current_json
from tests.support.three_sides import migrate_copy

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "real_patterns" / "keras_model_to_estimator.py"
FORMS = ["sequential", "functional", "tutorial"]
RTOL = 1e-6
VARIABLE_RTOL = 1e-5
# The tutorial model's TF 1.x loss is the rounding of a zero crossentropy (-log(1 - 1e-7) per
# label unit): measured 1.25e-6 (step losses) and 2.2e-6 (evaluation) apart from TF 1.15's, the
# trained variables identical. Held to 5e-6 absolute.
ZERO_LOSS_ATOL = {"tutorial": 5e-6}


def _oracle(name, form, folder):
    return run_json(oracle_python(name), PROGRAM, str(folder / name), form, env=oracle_env(), cwd=folder)


@pytest.fixture(scope="module", params=FORMS)
def runs(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(request.param)
    return {
        "folder": folder, "form": request.param,
        "tf115": _oracle("tf115", request.param, folder),
        "tf215": _oracle("tf215", request.param, folder),
        "runner": run_current_json("-m", "estimator_bridge.run", str(PROGRAM), str(folder / "runner"),
                                   request.param, cwd=folder),
        "migrated": run_current_json(migrate_copy(PROGRAM, folder / "migrate"), str(folder / "migrated"),
                                     request.param, cwd=folder),
        "migrated_split": run_current_json(migrate_copy(PROGRAM, folder / "migrate"), str(folder / "split"),
                                           request.param, "split", cwd=folder),
        "tf115_split": run_json(oracle_python("tf115"), PROGRAM, str(folder / "tf115_split"), request.param,
                                "split", env=oracle_env(), cwd=folder),
    }


def _same_numbers(actual, expected, where, atol=0.0):
    assert actual["steps"] == expected["steps"] == list(range(1, 13)), where
    np.testing.assert_allclose(actual["losses"], expected["losses"], rtol=RTOL, atol=atol, err_msg=where)
    assert actual["loss_tags"] == expected["loss_tags"] == ["loss_1"], where
    assert actual["evaluation"].keys() == expected["evaluation"].keys(), where
    for key, value in expected["evaluation"].items():
        np.testing.assert_allclose(actual["evaluation"][key], value, rtol=RTOL, atol=atol, err_msg=f"{where}: {key}")
    assert len(actual["predictions"]) == len(expected["predictions"]) == 3
    for got, wanted in zip(actual["predictions"], expected["predictions"]):
        assert got.keys() == wanted.keys(), where
        for key in wanted:
            np.testing.assert_allclose(got[key], wanted[key], rtol=RTOL, atol=1e-7, err_msg=where)


def test_the_runner_gives_tf115s_numbers_names_and_variables(runs):
    actual, expected = runs["runner"], runs["tf115"]
    _same_numbers(actual, expected, "runner vs TF 1.15", ZERO_LOSS_ATOL.get(runs["form"], 0.0))
    assert sorted(actual["weights"]) == sorted(expected["weights"])  # TF 1.15's `saver` checkpoint names
    for name, values in expected["weights"].items():
        np.testing.assert_allclose(actual["weights"][name], values, rtol=VARIABLE_RTOL, atol=1e-7, err_msg=name)


def test_the_runner_gives_tf215s_numbers(runs):
    """TF 2.15 named the metric `accuracy` (TF 1.x Keras: `acc`; the program is TF 1.x code, so the
    runner names it as TF 1.15 did) and wrote object-based checkpoint keys; the numbers are the same."""
    actual, expected = dict(runs["runner"]), dict(runs["tf215"])
    if runs["form"] == "tutorial":
        # TF 1.15 and TF 2.15 differ here: TF 2.x's Keras squeezed the (batch, 1) output to the
        # labels' rank (loss 12.53 at step 1), TF 1.15 gave the labels the axis (7.2e-7); the
        # program is TF 1.x code, so the runner follows TF 1.15 (keras_estimator.same_ranks).
        assert expected["losses"][0] > 1 and actual["losses"][0] < 1e-5
        return
    expected["evaluation"] = {("acc" if key == "accuracy" else key): value
                              for key, value in expected["evaluation"].items()}
    _same_numbers(actual, expected, "runner vs TF 2.15")


def test_the_migrated_program_gives_tf115s_numbers_on_keras_3(runs):
    """estimator-migrate rewrites the call to estimator_bridge.model_to_estimator; the model is Keras 3's
    (its Sequential input is `input_layer`: the features' Keras 2 key `dense_input` is still taken).
    Its checkpoint holds Keras 3's optimizer names (`adam/dense_kernel_momentum`), not TF 1.15's."""
    actual, expected = runs["migrated"], runs["tf115"]
    _same_numbers(actual, expected, "migrated vs TF 1.15", ZERO_LOSS_ATOL.get(runs["form"], 0.0))
    model_names = {name for name in expected["weights"] if not name.startswith("training/")}
    assert model_names <= set(actual["weights"])
    for name in model_names:
        np.testing.assert_allclose(actual["weights"][name], expected["weights"][name], rtol=VARIABLE_RTOL,
                                   atol=1e-7, err_msg=name)


def test_a_second_train_call_resumes_the_first_ones_checkpoint(runs):
    """train(steps=6) twice: the second call restores model.ckpt-6 (optimizer slots included) and
    calls input_fn again, as TF 1.15 did; the migrated side's Keras 3 optimizer names stay the same."""
    _same_numbers(runs["migrated_split"], runs["tf115_split"], "migrated, split, vs TF 1.15",
                  ZERO_LOSS_ATOL.get(runs["form"], 0.0))


@pytest.mark.parametrize("side", ["runner", "migrated"])
def test_a_model_dir_tf215_wrote_resumes(runs, side, tmp_path):
    """TF 2.15 saved object-based keys (`layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`,
    checkpoint_format="checkpoint"); its model.ckpt-0 in a fresh model_dir is restored under the
    bridge's names (keras_checkpoint_names.py) and training goes on to TF 2.15's numbers. Before:
    "checkpoint ... has no tensor for the model variable(s) ['dense/bias', ...]". (The tutorial
    form's TF 2.15 numbers are not the TF 1.x program's: see test_the_runner_gives_tf215s_numbers.)"""
    if runs["form"] == "tutorial":
        pytest.skip("the tutorial form's TF 2.15 loss differs from TF 1.15's by design (TF 1.x program)")
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    for file in (runs["folder"] / "tf215").glob("model.ckpt-0.*"):
        if ".meta" not in file.name:
            shutil.copy(file, model_dir / file.name)
    (model_dir / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    program = PROGRAM if side == "runner" else migrate_copy(PROGRAM, tmp_path / "migrate")
    command = ["-m", "estimator_bridge.run", str(PROGRAM)] if side == "runner" else [str(program)]
    actual = run_current_json(*command, str(model_dir), runs["form"], cwd=tmp_path)
    expected = dict(runs["tf215"])
    expected["evaluation"] = {("acc" if key == "accuracy" else key): value
                              for key, value in expected["evaluation"].items()}
    _same_numbers(actual, expected, f"{side} resumed from TF 2.15's model.ckpt-0")


def test_the_estimator_starts_from_the_models_weights_not_its_initializers(runs):
    """The first step's loss is the loss of the weights the program set before model_to_estimator:
    equal on every side, whatever each TensorFlow's initializers would have drawn."""
    assert runs["runner"]["start"] == runs["tf115"]["start"]
    assert runs["runner"]["losses"][0] == pytest.approx(runs["tf115"]["losses"][0], rel=RTOL,
                                                        abs=ZERO_LOSS_ATOL.get(runs["form"], 0.0))
