"""TF 1.x RNN cells (tf.nn.rnn_cell, tf.contrib.rnn) migrated to estimator_bridge.compat.rnn_cell compute
what TF 1.15 computed.

Fixture contrib/rnn_cells (heldout5: keithito/tacotron's residual GRU decoder with OutputProjectionWrapper,
BERT-BiLSTM-CRF-NER's bidirectional LSTM/GRU in DropoutWrapper, the tutorials' BasicLSTMCell/BasicRNNCell
stacks under static_rnn, LSTMCell with peepholes/projection/clipping, InputProjectionWrapper,
EmbeddingWrapper): `compute()` runs on TF 1.15 as written and on current TensorFlow migrated. Variable
names and shapes are equal; outputs, final states, three GradientDescent losses and the trained variables
agree within rtol 1e-6 (measured 2026-11-27: at most 1.4e-6 absolute on losses of 6.8-25.6, 1.2e-7 on
the O(1) outputs: float32 kernels of two TF versions).
"""

from pathlib import Path

import pytest

from migrate.engine import migrate_text
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "run_fixture_compute.py"
FIXTURE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "contrib" / "rnn_cells"


def test_every_rnn_cell_name_goes_to_the_bridge_and_no_tf_contrib_is_left():
    migrated, findings = migrate_text(Path(f"{FIXTURE}.before.py").read_text())
    code = migrated.split('"""')[2]  # after the docstring, which names the originals
    assert "contrib" not in code and "rnn_cell." not in code.replace("compat.rnn_cell.", "")
    assert {f.code for f in findings} == {"MIG211"}  # the fixture's own Session, as the other fixtures'


def test_a_cell_module_alias_and_an_internal_import_are_rewritten_too():
    source = ("import tensorflow as tf\n"
              "from tensorflow.contrib.rnn.python.ops.core_rnn_cell import OutputProjectionWrapper\n"
              "cell = OutputProjectionWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(4), 2)\n")
    migrated, findings = migrate_text(source)
    assert migrated == ("import tensorflow as tf\n"
                        "from estimator_bridge.compat.rnn_cell import OutputProjectionWrapper\n"
                        "import estimator_bridge.compat.rnn_cell\n"
                        "\n"
                        "cell = OutputProjectionWrapper(estimator_bridge.compat.rnn_cell.GRUCell(4), 2)\n")
    assert findings == []


@pytest.mark.oracle
def test_migrated_rnn_cells_compute_what_tf_1_15_computed():
    expected = run_json(oracle_python("tf115"), PROGRAM, f"{FIXTURE}.before.py", cwd=REPO_ROOT)
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, f"{FIXTURE}.after.py", env=env, cwd=REPO_ROOT)
    assert (expected.pop("tensorflow"), ours.pop("tensorflow")) == ("1", "2")
    assert sorted(ours) == sorted(expected)
    assert ours.pop("named") == expected.pop("named")
    for key, value in expected.items():
        assert_close(ours[key], value, rtol=1e-6, what=key)


@pytest.mark.oracle
@pytest.mark.parametrize("case", ["rnn_cells", "rnn_block_cells", "contrib_crf"])
def test_the_compat_runner_serves_the_same_cells_and_crf_unmigrated(case):
    # `python -m estimator_bridge.run` on the unmigrated fixture: tf.nn.rnn_cell (a namespace module of its own,
    # since TF 2.21's tf.compat.v1.nn.rnn_cell raises under Keras 3), tf.contrib.rnn's cells and fused cells and
    # tf.contrib.crf are served from the codemod's table (estimator_bridge/compat/namespace_table.py); before,
    # the runner stopped at the first one ("tf.contrib.rnn.MultiRNNCell is not available").
    fixture = FIXTURE.parent / case
    expected = run_json(oracle_python("tf115"), PROGRAM, f"{fixture}.before.py", cwd=REPO_ROOT)
    ours = run_current_json("-m", "estimator_bridge.run", str(PROGRAM), f"{fixture}.before.py", cwd=REPO_ROOT)
    assert (expected.pop("tensorflow"), ours.pop("tensorflow")) == ("1", "2")
    assert sorted(ours) == sorted(expected)
    for key in ("named", "decoded", "single_tags", "viterbi"):
        assert ours.pop(key, None) == expected.pop(key, None), key
    for key, value in expected.items():
        assert_close(ours[key], value, rtol=1e-6, what=key)
