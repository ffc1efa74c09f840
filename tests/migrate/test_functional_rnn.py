"""tf.contrib.recurrent.functional_rnn -> tf.compat.v1.nn.dynamic_rnn: what TF 1.15 computed.

functional_rnn had dynamic_rnn's interface and recurrence (built as a functional While loop, which
TPUs compiled well); it was MIG301. Fixture contrib/functional_rnn (an LSTM encoder with lengths, a
time-major GRU decoder with an initial state passed positionally, one GradientDescent step) runs on
TF 1.15 as written and migrated on current TensorFlow: variable names equal, outputs, states and
losses within rtol 1e-6.
"""

from pathlib import Path

import pytest

from migrate.engine import migrate_text
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "run_fixture_compute.py"
FIXTURE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "contrib" / "functional_rnn"


def test_reverse_and_use_tpu_keep_the_call_with_a_finding_naming_dynamic_rnn():
    source = ("import tensorflow as tf\n"
              "out = tf.contrib.recurrent.functional_rnn(cell, x, dtype=tf.float32, reverse=True)\n")
    migrated, findings = migrate_text(source)
    assert "functional_rnn(cell" in migrated
    assert any("dynamic_rnn" in (f.hint or "") for f in findings), findings


@pytest.mark.oracle
def test_migrated_functional_rnn_computes_what_tf_1_15_computed():
    expected = run_json(oracle_python("tf115"), PROGRAM, f"{FIXTURE}.before.py", cwd=REPO_ROOT)
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, f"{FIXTURE}.after.py", env=env, cwd=REPO_ROOT)
    assert (expected.pop("tensorflow"), ours.pop("tensorflow")) == ("1", "2")
    assert sorted(ours) == sorted(expected)
    names = expected.pop("named")
    assert ours.pop("named") == names and "encoder/rnn/lstm_cell/kernel" in names
    for key, value in expected.items():
        assert_close(ours[key], value, rtol=1e-6, what=key)
