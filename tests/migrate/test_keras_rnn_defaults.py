"""TF 1.x Keras LSTM/GRU on their defaults keep TF 1.15's numbers after estimator-migrate, both Keras
targets (oracle test), and the codemod's rewrite as before/after pairs.

TF 1.15's tf.keras LSTM/GRU(+Cell) gated with hard_sigmoid (clip(0.2 x + 0.5)) and its GRU had no
reset_after; TF 2.x's Keras, tf-keras and Keras 3 default to sigmoid and reset_after=True, and Keras 3's
hard_sigmoid has slope 1/6. GoogleCloudPlatform/cloudml-samples tpu/templates/tpu_keras/trainer.py
(2018, `LSTM(10)`) migrated ran another model with no finding. KerasRnnTf1Defaults writes the defaults
out.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.migrate.codemods.support import assert_codemod
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_2018_rnn_defaults.py"
NAME = "KerasRnnTf1Defaults"


def test_the_defaults_are_written_where_the_call_relies_on_them():
    assert_codemod(NAME, """
        import tensorflow as tf

        a = tf.keras.layers.LSTM(10)(inputs)
        b = tf.keras.layers.GRU(4, return_sequences=True)(inputs)
        c = tf.keras.layers.LSTM(3, recurrent_activation='sigmoid')(inputs)
        d = tf.keras.layers.GRUCell(4, 'tanh', 'sigmoid', reset_after=True)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_tf1_activations

        a = tf.keras.layers.LSTM(10, recurrent_activation=estimator_bridge.compat.keras_tf1_activations.hard_sigmoid)(inputs)
        b = tf.keras.layers.GRU(4, return_sequences=True, recurrent_activation=estimator_bridge.compat.keras_tf1_activations.hard_sigmoid, reset_after=False)(inputs)
        c = tf.keras.layers.LSTM(3, recurrent_activation='sigmoid')(inputs)
        d = tf.keras.layers.GRUCell(4, 'tanh', 'sigmoid', reset_after=True)
        """)


def test_keras_2_target_names_hard_sigmoid(monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, "2")
    migrated, _ = migrate_text("import tensorflow as tf\nx = tf.keras.layers.GRU(4)(inputs)\n", "m.py")
    assert "tf_keras.layers.GRU(4, recurrent_activation='hard_sigmoid', reset_after=False)" in migrated


@pytest.fixture(scope="module")
def oracle():
    result = run_json(oracle_python("tf115"), PROGRAM)
    assert result["tensorflow"] == "1.15.0"
    return result


@pytest.mark.oracle
@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_rnn_program_reproduces_tf_1_15(oracle, target, tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "recurrent_activation=" in migrated and "reset_after=False" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    ours = run_current_json(path)   # before: losses 5e-2 apart (sigmoid gates, reset_after GRU)
    np.testing.assert_allclose(ours["loss"], oracle["loss"], rtol=1e-5)
    np.testing.assert_allclose(ours["predictions"], oracle["predictions"], rtol=1e-5)
    assert [len(w) for w in ours["weights"]] == [len(w) for w in oracle["weights"]]
    for mine, theirs in zip(ours["weights"], oracle["weights"]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5)   # measured 2.9e-7 elementwise, both targets
