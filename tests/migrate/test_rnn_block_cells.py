"""tf.contrib.rnn's fused cells (LSTMBlockCell, LSTMBlockFusedCell, GRUBlockCell, GRUBlockCellV2) migrated to
estimator_bridge.compat.contrib_rnn_block compute what TF 1.15 computed.

Fixture contrib/rnn_block_cells (heldout5: tensorpack's Char-RNN MultiRNNCell of LSTMBlockCell; the pattern of
tensorflow/magenta, google-research/planet, deepmind/scalable_agent; peepholes, cell clipping, a fused cell
on time-major input with sequence lengths): `compute()` runs on TF 1.15 as written and on current TensorFlow
migrated. Variable names and shapes equal; outputs, states, three GradientDescent losses (through the
LSTMBlockCell/GRUBlockCell gradients registered by the bridge and BlockLSTM's registered by TF) and the trained
variables within rtol 1e-6 (measured 2026-11-27: 1.2e-7 absolute on O(1) outputs, 9.5e-7 on losses of 9).
"""

from pathlib import Path

import pytest

from migrate.engine import migrate_text
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "run_fixture_compute.py"
FIXTURE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "contrib" / "rnn_block_cells"


def test_the_fused_cells_go_to_the_bridge_and_no_tf_contrib_is_left():
    migrated, findings = migrate_text(Path(f"{FIXTURE}.before.py").read_text())
    code = migrated.split('"""')[2]
    assert "contrib." not in code.replace("compat.contrib_rnn_block", "").replace("compat.rnn_cell", "")
    assert {f.code for f in findings} == {"MIG211"}  # the fixture's own Session


@pytest.mark.oracle
def test_migrated_fused_cells_compute_what_tf_1_15_computed():
    expected = run_json(oracle_python("tf115"), PROGRAM, f"{FIXTURE}.before.py", cwd=REPO_ROOT)
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, f"{FIXTURE}.after.py", env=env, cwd=REPO_ROOT)
    assert (expected.pop("tensorflow"), ours.pop("tensorflow")) == ("1", "2")
    assert sorted(ours) == sorted(expected)
    assert ours.pop("named") == expected.pop("named")
    for key, value in expected.items():
        assert_close(ours[key], value, rtol=1e-6, what=key)
