"""compile(optimizer='adam') in TF 1.x Keras code steps as TF 1.15 did after estimator-migrate (oracle test).

tests/migrate/programs/keras_tf1_adam.py trains a dense model 6 steps with the string 'adam' and
prints each step's kernel update over the learning rate. TF 1.15 runs it as written; TF 2.21 runs
the codemod's output for both Keras targets, and, for the record of what was wrong, the program
with the string left as it was (Keras 3's own Adam). Measured (CPU, oneDNN off): Keras 3's
`'adam'` steps 5.6e-6..6.5e-6 (of the learning rate) away from TF 1.15 at every step, one way (its
decay rates are formed in float64, 1 - 0.999 = 0.001, where TF's ApplyAdam kernel uses
1 - float32(0.999) = 0.00099998713: a second moment 1.3e-5 larger); the migrated programs are
within the float32 resolution of the updates (~5e-7).
"""

import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tf1_adam.py"
STEP_TOLERANCE = 1e-6  # of the learning rate; Keras 3's own Adam is 5.6e-6 away

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def oracle():
    result = run_json(oracle_python("tf115"), PROGRAM)
    assert result["tensorflow"] == "1.15.0"
    return result


def _largest_step_difference(ours, oracle):
    return max(abs(a - b) for ours_step, oracle_step in zip(ours["steps"], oracle["steps"])
               for a, b in zip(ours_step, oracle_step))


def _run(tmp_path, text):
    path = tmp_path / PROGRAM.name
    path.write_text(text)
    return run_current_json(path)


@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_adam_steps_as_tf1_keras_did(oracle, tmp_path, monkeypatch, target):
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", target)
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "optimizer='adam'" not in migrated
    ours = _run(tmp_path, migrated)
    difference = _largest_step_difference(ours, oracle)
    print(f"--keras {target}: steps {difference:.2e} of the learning rate from TF 1.15")
    assert difference <= STEP_TOLERANCE


def test_keras_3s_own_adam_is_the_difference(oracle, tmp_path, monkeypatch):
    """The reason for the rewrite: the string left to Keras 3 steps shorter at every step."""
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", "3")
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    unchanged_optimizer = migrated.replace(
        "optimizer=estimator_bridge.compat.keras_tf1_optimizers.KerasAdam()", "optimizer='adam'")
    ours = _run(tmp_path, unchanged_optimizer)
    shorter = [oracle_value - our_value if oracle_value > 0 else our_value - oracle_value
               for ours_step, oracle_step in zip(ours["steps"], oracle["steps"])
               for our_value, oracle_value in zip(ours_step, oracle_step)]
    print(f"Keras 3's 'adam': steps {min(shorter):.2e}..{max(shorter):.2e} of the learning rate shorter")
    assert min(shorter) > 3e-6


CONSTRUCTOR = "optimizer=tf.keras.optimizers.Adam(lr=0.001)"


@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_keras_adam_constructor_steps_as_tf1_keras_did(tmp_path, monkeypatch, target):
    """The same program with tf.keras' `Adam(lr=0.001)` in place of the string (tagtag/Behaviormetric's
    3_3_convolution_tpu notebook): TF 1.15 ran the same kernel Adam for both. Before, the codemod
    left Keras 3's (or tf-keras 2.21's) own Adam, 5.6e-6 of the learning rate short at every step."""
    source = PROGRAM.read_text().replace("optimizer='adam'", CONSTRUCTOR)
    assert CONSTRUCTOR in source
    written = tmp_path / "tf115" / PROGRAM.name
    written.parent.mkdir()
    written.write_text(source)
    oracle = run_json(oracle_python("tf115"), written)
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", target)
    migrated, _ = migrate_text(source, str(PROGRAM))
    assert "tf.keras.optimizers.Adam(" not in migrated
    ours = _run(tmp_path, migrated)
    difference = _largest_step_difference(ours, oracle)
    print(f"--keras {target}, Adam(lr=...): steps {difference:.2e} of the learning rate from TF 1.15")
    assert difference <= STEP_TOLERANCE
