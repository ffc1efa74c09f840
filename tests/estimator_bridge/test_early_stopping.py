"""TF 1.x's early-stopping hooks stop training at TF 1.15's step (oracle test).

A 2018 TF-Slim fine-tuning trainer passed `tf.contrib.estimator.stop_if_no_decrease_hook(
estimator, "loss", ...)` to its TrainSpec (tf.estimator.experimental's name from TF 1.13); the
runner refused the name and the codemod left it to a hint. programs/early_stopping_hooks.py runs
the four predicates (no decrease, no increase, higher, lower with min_steps) and a step timer
over the same evaluations on TF 1.15, under the runner and after estimator-migrate: each
train(steps=10) must stop at TF 1.15's global step.
"""

from __future__ import annotations

import pytest

from tests.support.oracles import REPO_ROOT
from tests.support.three_sides import run_side

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "programs" / "early_stopping_hooks.py"


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    side = run_side("oracle", PROGRAM, ["{model_dir}"], tmp_path_factory.mktemp("oracle"))
    assert side.returncode == 0, side.stderr[-3000:]
    # the program is a real test of the hooks: some stop at once, some run all 10 steps
    assert side.result["stopped"] == {"higher": 1, "lower": 10, "no_decrease": 1,
                                      "no_decrease_every_3": 1, "no_increase": 10}
    return side.result


@pytest.mark.parametrize("side_name", ["runner", "migrated"])
def test_each_hook_stops_at_tf115_s_step(oracle, side_name, tmp_path):
    side = run_side(side_name, PROGRAM, ["{model_dir}"], tmp_path)
    assert side.returncode == 0, side.stderr[-3000:]
    assert side.result == oracle
