"""Weight files named at run time and float step counts keep a 2019-style Keras program running after
estimator-migrate, with TF 1.15's numbers (oracle test), and the run-time helpers that decide them.

tests/migrate/programs/keras_2019_weights_paths.py saves and loads weights through paths built at run
time (`start = os.path.join(work_dir, "start.h5")`, `"%s/final_%d.h5" % (...)`) and fits with
`steps_per_epoch=np.ceil(n / batch)`: migrated before, it got 0 findings and stopped at its first
save_weights (Keras 3: "The filename must end in `.weights.h5`"), then at fit ('float' object cannot
be interpreted as an integer). The codemod (KerasRemovedMethods) routes those calls through
estimator_bridge.compat.keras_weights. Measured (TF 2.21 + Keras 3.15 vs TF 1.15, CPU): history,
evaluation and final weights within 3e-6 relative (float32 Adam over 15 steps); held to 1e-5.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_2019_weights_paths.py"


def test_run_time_paths_and_float_steps_go_through_the_helpers():
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "keras_weights.save_weights(model, start_weights)" in migrated
    assert "keras_weights.load_weights(model, final_weights)" in migrated
    assert "steps_per_epoch=estimator_bridge.compat.keras_weights.steps(steps)" in migrated
    assert "steps=estimator_bridge.compat.keras_weights.steps(steps)" in migrated


@pytest.mark.oracle
def test_the_migrated_2019_program_reproduces_tf_1_15(tmp_path):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    (tmp_path / "oracle").mkdir()
    (tmp_path / "ours").mkdir()
    oracle = run_json(oracle_python("tf115"), PROGRAM, str(tmp_path / "oracle"))
    assert oracle["tensorflow"] == "1.15.0"
    ours = run_current_json(path, str(tmp_path / "ours"))
    for key in ("loss", "again", "evaluate"):
        np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-5, err_msg=key)
    for mine, theirs in zip(ours["weights"], oracle["weights"]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)
    assert sorted(p.name for p in (tmp_path / "ours").iterdir()) == ["final_3.weights.h5", "start.weights.h5"]


def test_weights_are_written_where_keras_3_accepts_and_read_back_by_the_programs_name(tmp_path):
    import keras

    from estimator_bridge.compat import keras_weights

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    start = [w.copy() for w in model.get_weights()]
    for name, written in (("a.h5", "a.weights.h5"), ("b.hdf5", "b.weights.h5"), ("ckpt", "ckpt.weights.h5"),
                          ("c.weights.h5", "c.weights.h5")):
        keras_weights.save_weights(model, str(tmp_path / name), True, "h5")   # Keras 2's overwrite, save_format
        assert (tmp_path / written).exists(), name
        model.set_weights([w + 1 for w in start])
        keras_weights.load_weights(model, tmp_path / name)
        np.testing.assert_array_equal(model.get_weights()[0], start[0])
    # a Keras 2 .h5 file already on disk (pretrained weights) is read as it is
    keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)]).save_weights(str(tmp_path / "old.weights.h5"))
    assert keras_weights.keras3_weights_to_load(str(tmp_path / "missing.h5")) == str(tmp_path / "missing.h5")
    (tmp_path / "pretrained.h5").write_bytes(b"")
    assert keras_weights.keras3_weights_to_load(str(tmp_path / "pretrained.h5")) == str(tmp_path / "pretrained.h5")
    # an earlier run's file under the Keras 3 name
    assert keras_weights.keras3_weights_to_load(str(tmp_path / "old.h5")) == str(tmp_path / "old.weights.h5")
    assert keras_weights.keras3_weights_path("w.{epoch:02d}.hdf5") == "w.{epoch:02d}.weights.h5"


def test_steps_are_what_keras_2_ran():
    from estimator_bridge.compat.keras_weights import steps

    # TF 1.15 and TF 2.15 ran 3 steps for 2.5 in fit_generator/fit/evaluate/predict (callback counts)
    assert steps(2.5) == 3 and type(steps(2.5)) is int
    assert steps(np.ceil(96 / 20.0)) == 5 and type(steps(np.float32(4.0))) is int
    assert steps(np.int64(7)) == 7 and type(steps(np.int64(7))) is int
    assert steps(None) is None and steps(4) == 4
