"""LearningRateScheduler with a `@tf.function` schedule trains as on TF 2.15 (oracle test).

tests/migrate/programs/keras_tensor_lr_schedule.py has the shape of training-data-analyst's
keras_104_flowers_gputputpupod_tf2.2.ipynb (7f86953, 2020): `@tf.function def lr_fn(epoch)` given
to `tf.keras.callbacks.LearningRateScheduler`. Keras 2 took the float32 tensor it returns; Keras 3
raised ValueError "The output of the `schedule` function should be a float. Got: 0.0099999..." at
the first epoch (measured). The codemod (KerasTensorSchedules) passes every schedule through
estimator_bridge.compat.keras_methods.legacy_lr_schedule. Measured against TF 2.15: the learning
rate of every epoch, the losses and the final weights are identical (the lambda schedule of the
xception notebook too); held to 1e-6. The callback logs the rate as `lr` in Keras 2 and as
`learning_rate` in Keras 3 (KeyError on `history.history['lr']`): the codemod renames the key read
in files that create the callback; the logged rates equal TF 2.15's.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tensor_lr_schedule.py"
RTOL = 1e-6

pytestmark = pytest.mark.oracle


def test_the_migrated_schedules_give_keras_2s_learning_rates_and_numbers(tmp_path):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert migrated.count("legacy_lr_schedule(") == 2 and "history.history['learning_rate']" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf215"), PROGRAM)
    assert oracle["tensorflow"].startswith("2.15")
    ours = run_current_json(path)
    for name in ("tf_function", "lambda"):
        np.testing.assert_allclose(ours[name]["rates"], oracle[name]["rates"], rtol=RTOL)
        np.testing.assert_allclose(ours[name]["logged_rates"], oracle[name]["logged_rates"], rtol=RTOL)
        np.testing.assert_allclose(ours[name]["loss"], oracle[name]["loss"], rtol=RTOL)
        for a, b in zip(ours[name]["weights"], oracle[name]["weights"]):
            np.testing.assert_allclose(a, b, rtol=RTOL)


def test_unmigrated_keras_3_refuses_the_tensor():
    """Pins why the rewrite exists."""
    with pytest.raises(RuntimeError, match="should be a float"):
        run_current_json(PROGRAM)
