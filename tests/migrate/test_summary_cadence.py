"""record_summaries_every_n_global_steps -> tf.summary.record_if(<every n steps>): the migrated
fixture records the same steps and values on TF 2 as the original on TF 1.15 (oracle A, eager)."""

import pytest

from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "summary_cadence_program.py"
FIXTURE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "contrib" / "summary_cadence"


@pytest.mark.oracle
def test_migrated_cadence_records_the_steps_tf_1_15_recorded(tmp_path):
    (tmp_path / "tf115").mkdir()
    (tmp_path / "current").mkdir()
    expected = run_json(oracle_python("tf115"), PROGRAM, "tf115", f"{FIXTURE}.before.py", str(tmp_path / "tf115"))
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, "current", f"{FIXTURE}.after.py", str(tmp_path / "current"), env=env)
    assert ours == expected
    assert [step for _, step, _ in expected["recorded"]] == [0, 3, 6]  # every 3rd of 7 steps: it filtered
