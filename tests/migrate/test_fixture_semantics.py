"""Migrated fixtures build the same TF1 model: the `.before.py` on TF 1.15 (oracle A) and the
`.after.py` on current TensorFlow give identical variable names, shapes, trainability and output
shapes (what TF1 checkpoints and warm starts are keyed by)."""

import pytest

from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "build_fixture_graph.py"
FIXTURES = REPO_ROOT / "tests" / "migrate" / "fixtures"
CASES = {"layers_objects": "layers/tf_layers_objects", "layer_norm": "contrib/layer_norm"}


@pytest.mark.oracle
@pytest.mark.parametrize("case", sorted(CASES))
def test_migrated_fixture_builds_the_variables_tf_1_15_built(case):
    expected = run_json(oracle_python("tf115"), PROGRAM, case, str(FIXTURES / f"{CASES[case]}.before.py"),
                        cwd=REPO_ROOT)
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, case, str(FIXTURES / f"{CASES[case]}.after.py"), env=env,
                    cwd=REPO_ROOT)
    assert ours == expected
    assert len(expected["variables"]) >= 8
