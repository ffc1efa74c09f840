"""`inspect.getargspec` (removed in Python 3.11) gives Python 3.7's answers on every side (oracle test).

A 2018 TF-Slim fine-tuning trainer (input_data.py: `inspect.getargspec(image_preprocessing_fn)
.args` in its tf.data map) stopped with AttributeError under the runner and after
estimator-migrate. programs/inspect_getargspec.py prints the ArgSpec of plain, defaulted,
variadic, bound-method and keyword-only functions; TF 1.15's Python 3.7 is the reference.
"""

from __future__ import annotations

import pytest

from tests.support.oracles import REPO_ROOT
from tests.support.three_sides import run_side

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "programs" / "inspect_getargspec.py"


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    side = run_side("oracle", PROGRAM, [], tmp_path_factory.mktemp("oracle"))
    assert side.returncode == 0, side.stderr[-3000:]
    assert side.result["keyword_only"]["error"].startswith("ValueError")
    return side.result


@pytest.mark.parametrize("side_name", ["runner", "migrated"])
def test_getargspec_answers_as_python_3_7_did(oracle, side_name, tmp_path):
    side = run_side(side_name, PROGRAM, [], tmp_path)
    assert side.returncode == 0, side.stderr[-3000:]
    assert side.result == oracle
