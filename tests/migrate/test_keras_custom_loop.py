"""A TF 2.1-era custom training loop keeps its numbers after estimator-migrate (oracle test).

tests/migrate/programs/keras_custom_loop_tf21.py has the shape of GoogleCloudPlatform/
training-data-analyst keras_flowers_customtrainloop_tf2.1.ipynb (909c685fd): a LearningRateSchedule
subclass computing `step // steps_per_epoch` and `LR_DECAY ** epoch`, and `optimizer.apply_gradients`
in a tf.function run per replica by `strategy.run` (2 replicas). On Keras 3 as written it fails
twice: the schedule gets Keras 3's int64 step ("Expected int64, but got 0.5"; TF 2.1's optimizer
passed float32), and the optimizer's first build inside the per-replica tf.function fails ("You
must feed a value for placeholder tensor ..."). The codemod casts the step and routes
apply_gradients through a helper that builds the optimizer first (estimator_bridge/compat/
keras_methods.py). The oracle is TF 2.15 with `tf.keras.optimizers.legacy.SGD`, the optimizer
TF 2.1-2.10 shipped as `tf.keras.optimizers.SGD`.
Measured (TF 2.21 + Keras 3.15 vs TF 2.15, CPU, oneDNN off): the 6 step losses and every final
weight are equal to the last bit; held to 1e-6.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_custom_loop_tf21.py"
RTOL = 1e-6

pytestmark = pytest.mark.oracle


def _current(program):
    return run_current_json(program)


def test_the_migrated_custom_loop_trains_as_tf_2_1s_keras_did(tmp_path):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "legacy_schedule_step(step)" in migrated and "keras_methods.apply_gradients(optimizer" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf215"), PROGRAM, "legacy")
    assert oracle["tensorflow"].startswith("2.15")
    ours = _current(path)
    assert len(ours["losses"]) == len(oracle["losses"]) == 6
    np.testing.assert_allclose(ours["losses"], oracle["losses"], rtol=RTOL)
    for index, (a, b) in enumerate(zip(ours["weights"], oracle["weights"])):
        assert_close(a, b, rtol=RTOL, what=f"weight {index}")  # relative to the tensor's RMS too


def test_unmigrated_the_program_fails_on_keras_3():
    """Pins why the rewrite exists; when this passes on Keras 3, Keras changed upstream."""
    with pytest.raises(RuntimeError, match="Expected int64"):
        _current(PROGRAM)
