"""Crossentropies compiled on another activation than their own keep TF 1.x's losses after
estimator-migrate, both Keras targets (oracle test).

tensorflow/tpu tools/colab/autoencoder_embeddings.ipynb (2019-07, TF 1.14) compiles
`Dense(10, activation='sigmoid')` with `sparse_categorical_crossentropy`. TF 1.15's Keras took logits
only from the loss's own activation op (Softmax; Sigmoid for binary crossentropy) and renormalised
anything else; Keras 3 and tf-keras take the input of any sigmoid or softmax as logits (the notebook's
first loss 2.4267669 for TF 1.15's 2.3288105). The program
(tests/migrate/programs/keras_tf1_crossentropies.py: sigmoid and softmax outputs under the three
crossentropies, as strings and `tf.keras.losses` functions) migrated: its losses are
`estimator_bridge.compat.keras_tf1_losses`' functions. Measured 2026-11-28 (TF 2.21 vs TF 1.15, CPU):
both targets within 2.6e-7 of TF 1.15 (as written, Keras 3: sigmoid + sparse CE 2.2947569 against
1.8331184, softmax + binary CE 1.0345521 against 0.8755065). Held to 1e-6.
"""

import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.estimator_bridge.test_compat_keras_legacy import assert_same_results
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tf1_crossentropies.py"


@pytest.fixture(scope="module")
def oracle():
    return run_json(oracle_python("tf115"), PROGRAM)


@pytest.mark.oracle
@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_crossentropies_give_tf_1_15s_losses(oracle, target, tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert migrated.count("keras_tf1_losses.") == 7   # the seven losses
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    assert oracle["sigmoid sparse_categorical_crossentropy"][0] == pytest.approx(1.8331184, abs=1e-6)
    ours = run_current_json(path)
    assert_same_results(ours, oracle)
