"""keras_to_tpu_model fed by dataset functions trains as on TF 1.15 (oracle test).

tests/migrate/programs/keras_tpu_dataset_function.py has the shape of training-data-analyst's
07_Keras_Flowers_TPU_squeezenet.ipynb of 2019 (a12263e96): `tpu_model.fit(get_training_dataset,
..., validation_data=get_validation_dataset)` with the functions (TF 1.x's KerasTPUModel refused a
dataset) and a batch size that is per core on the TPU branch. Migrated and run on 2 emulated TPU
cores (estimator_bridge.tpu_emulation), Keras 3 raised "Unrecognized data type: x=<function ...>"
(measured on the notebook itself with synthetic flowers records); before that the migrated copy
never recorded the conversion at all, being under `if tpu:` (names.statement_scope answered None
inside blocks). Now the codemod passes both inputs through estimator_bridge.compat.keras_tpu.
tpu_model_input, which calls the function and joins one batch per core into the global batch, as
KerasTPUModel's infeed gave each core its own batch. Oracle: TF 1.15's CPU branch at the global
batch (8 per core x 2 cores). Measured (TF 2.21 + Keras 3.15 on 2 emulated cores vs TF 1.15,
CPU, oneDNN off): losses within 7.4e-8, accuracies and validation equal, evaluate 7.2e-8, predictions
2.3e-7, weights 2.4e-7 of their RMS; held to 1e-6.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tpu_dataset_function.py"
CORES, PER_CORE = "2", "8"
RTOL = 1e-6

pytestmark = pytest.mark.oracle


def _on_emulated_tpu(path):
    return run_current_json("-m", "estimator_bridge.tpu_emulation", "--cores", CORES, str(path), CORES, PER_CORE)


def _migrated(tmp_path, transform=lambda text: text):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    path = tmp_path / PROGRAM.name
    path.write_text(transform(migrated))
    return migrated, path


def test_the_tpu_branch_trains_on_per_core_batches_as_keras_to_tpu_model_did(tmp_path):
    migrated, path = _migrated(tmp_path)
    assert "tpu_model.fit(estimator_bridge.compat.keras_tpu.tpu_model_input(get_training_dataset, tpu_model)" in migrated
    assert "restarted_each_epoch(estimator_bridge.compat.keras_tpu.tpu_model_input(get_validation_dataset, tpu_model))" in migrated
    assert "tpu_model.evaluate(estimator_bridge.compat.keras_tpu.tpu_model_input(get_validation_dataset, tpu_model)" in migrated
    oracle = run_json(oracle_python("tf115"), PROGRAM, CORES, PER_CORE)
    assert oracle["tensorflow"].startswith("1.15") and not oracle["tpu"]
    ours = _on_emulated_tpu(path)
    assert ours["tpu"]
    assert sorted(ours["history"]) == sorted(oracle["history"])
    for key, values in oracle["history"].items():
        np.testing.assert_allclose(ours["history"][key], values, rtol=RTOL, err_msg=key)
    np.testing.assert_allclose(ours["evaluate"], oracle["evaluate"], rtol=RTOL)
    assert_close(ours["predictions"], oracle["predictions"], rtol=RTOL, what="predictions")
    for index, (a, b) in enumerate(zip(ours["weights"], oracle["weights"])):
        assert_close(a, b, rtol=RTOL, what=f"weight {index}")  # relative to the tensor's RMS too


def test_without_the_helper_keras_3_refuses_the_dataset_function(tmp_path):
    """Pins why the rewrite exists: Keras 3 takes no function as x."""
    _, path = _migrated(tmp_path, lambda text: text.replace("estimator_bridge.compat.keras_tpu.tpu_model_input(", "(")
                        .replace(", tpu_model)", ")"))
    with pytest.raises(RuntimeError, match="Unrecognized data type"):
        _on_emulated_tpu(path)
