"""`fit(x, y, ...)` on numpy arrays with fit's default shuffle keeps TF 1.15's batches after
estimator-migrate, both Keras targets (oracle test).

GoogleCloudPlatform/cloudml-samples tpu/templates/tpu_keras/trainer.py (2018) seeds numpy and fits
`fit(sequences, labels, epochs=3)`: TF 1.15's Keras drew each epoch's order with numpy's global
generator (and shuffled the validation rows after each epoch's training the same way); Keras 3 and
tf-keras in TF 2 mode shuffle with TensorFlow's. Migrated, the trainer's first-batch loss was 0.68843
(`--keras 3`) / 0.68818 (`--keras 2`) against TF 1.15's 0.69731, which is the loss of TF 1.15's
numpy-shuffled first batch from the same start weights. KerasTF1Fit routes the call through
estimator_bridge.compat.keras_methods.fit_tf1, which serves keras_tf1_shuffle's batches.
Measured (TF 2.21, Keras 3.15 / tf-keras 2.21 vs TF 1.15, CPU): epoch and validation losses within
8.7e-8 relative, every final weight within 1.9e-6 relative, the next numpy draw equal. Without the
rewrite the losses are 1e-2..7e-2 apart and the next draw differs.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_2018_fit_shuffled.py"

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def oracle():
    result = run_json(oracle_python("tf115"), PROGRAM)
    assert result["tensorflow"] == "1.15.0"
    return result


@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_fit_draws_tf_1_15s_batches_from_numpy(oracle, target, tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "keras_methods.fit_tf1(model, x, y, epochs=2" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    ours = run_current_json(path)
    # the numpy stream is where TF 1.15 left it: as many draws, in the same places
    assert ours["next_draw"] == oracle["next_draw"]
    np.testing.assert_allclose(ours["loss"], oracle["loss"], rtol=1e-6)
    np.testing.assert_allclose(ours["val_loss"], oracle["val_loss"], rtol=1e-6)
    assert [len(w) for w in ours["weights"]] == [len(w) for w in oracle["weights"]]
    for mine, theirs in zip(ours["weights"], oracle["weights"]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5)   # measured 1.9e-6 elementwise (float32 sums)
