"""`fit(arrays, batch_size=B, steps_per_epoch=N, validation_data=arrays)` keeps TF 1.x's numbers after
estimator-migrate, both Keras targets (oracle test).

tensorflow/tpu tools/colab/autoencoder_embeddings.ipynb (2019-07, TF 1.14) fits
`autoencoder.fit(x_train, x_train, batch_size=128, epochs=3, steps_per_epoch=468,
validation_data=(x_test, x_test))`. Without a strategy, TF 1.15's Keras fed the *full* arrays at each
of the N steps (the batch size was not used for training) and batched only the validation arrays by B,
shuffling them with numpy's generator each epoch. KerasTF1Fit left a call with a batch size as
written: Keras 3 cut B-row batches and ran out of them (64 rows, B=128, N=2: one step per epoch, the
notebook's autoencoder trained 3 steps of TF 1.15's 6), and drew nothing from numpy, so a later
shuffled fit ran on other batches. tests/migrate/programs/keras_tf1_fit_arrays_batch_size.py,
measured (TF 2.21 vs TF 1.15, CPU): as written, epoch losses 0.998 / 0.784 / 0.702 against
0.940 / 0.705 / 0.581; migrated, both targets: losses within 1.7e-7, val_loss 6.9e-8, val_acc
equal (held to 1e-5), and the next numpy draw equal.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tf1_fit_arrays_batch_size.py"


@pytest.fixture(scope="module")
def oracle():
    result = run_json(oracle_python("tf115"), PROGRAM)
    assert result["tensorflow"] == "1.15.0"
    return result


@pytest.mark.oracle
@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_fit_with_a_batch_size_and_steps_reproduces_tf_1_15(oracle, target, tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "keras_methods.fit_tf1(model, x[:120], y[:120], batch_size=16, epochs=3, steps_per_epoch=5" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    ours = run_current_json(path)
    for key in ("losses", "val_losses", "val_acc"):
        np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-5, err_msg=key)
    assert ours["next_draw"] == oracle["next_draw"]   # the validation's numpy draws, one per epoch


@pytest.mark.oracle
def test_as_written_keras_3_trains_on_other_batches(oracle):
    as_written = run_current_json(PROGRAM)
    assert abs(as_written["losses"][-1] - oracle["losses"][-1]) > 0.05 * oracle["losses"][-1]
