"""tf.contrib.framework's variable functions run on every side as in TF 1.15 (oracle test).

The codemod rewrites contrib.framework's variable functions that TF-Slim re-exported
(get_variables_to_restore, get_variables_by_name/_by_suffix, get_unique_variable, ...) to tf-slim's,
but the runner refused them (`UnsupportedName: tf.contrib.framework.get_variables_to_restore`),
so an unchanged fine-tuning trainer stopped where its migrated copy ran.
programs/contrib_framework_variables.py calls each in a model_fn, trains only the head they select
for one step, and prints what they returned and the variables.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.oracles import REPO_ROOT
from tests.support.three_sides import run_side

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "programs" / "contrib_framework_variables.py"


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    side = run_side("oracle", PROGRAM, ["{model_dir}"], tmp_path_factory.mktemp("oracle"))
    assert side.returncode == 0, side.stderr[-3000:]
    assert side.result["to_restore"] == ["net/body/kernel", "net/body/bias"]
    return side.result


@pytest.mark.parametrize("side_name", ["runner", "migrated"])
def test_the_variable_functions_answer_as_in_tf115(oracle, side_name, tmp_path):
    side = run_side(side_name, PROGRAM, ["{model_dir}"], tmp_path)
    assert side.returncode == 0, side.stderr[-3000:]
    variables = side.result.pop("variables")
    expected = dict(oracle)
    expected_variables = expected.pop("variables")
    assert side.result == expected
    assert sorted(variables) == sorted(expected_variables)
    for name, values in expected_variables.items():
        np.testing.assert_allclose(variables[name], values, rtol=1e-6, atol=1e-7, err_msg=name)
