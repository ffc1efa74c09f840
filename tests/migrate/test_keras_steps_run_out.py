"""TF 1.x Keras' fit when the data runs out before steps_per_epoch * epochs steps, after estimator-migrate
(oracle test).

TF 1.15 read a finite dataset or a generator through one iterator for the whole fit and, when it ran out,
logged "Your dataset iterator ran out of data; interrupting training" and stopped. Keras 3 and tf-keras end
that epoch and restart the data for the next. tests/migrate/programs/keras_steps_run_out.py
(steps_per_epoch=3, epochs=2) measured before this fix: on 2 batches, Keras 3 trained 4 steps on the
dataset and on the generator (TF 1.15: 2; kernel[2] -0.3268 vs -0.4871), tf-keras 2; on exactly 3 batches
both trained 6 steps on the dataset (TF 1.15: 3). fit_tf1 / fit_generator_tf1 now add a callback that
stops after an epoch the data ran out in (or, for a dataset of known size, read to its end): kernels equal
to TF 1.15's on both targets.

A Sequence shorter than steps_per_epoch (TF 1.15 cycled through it: 6 steps; Keras 3 restarted it each
epoch: 4, tf-keras stopped: 2) is now read as TF 1.15's one stream (keras_tf1_sequence), and TF 1.15's
training loss on a dataset (the mean of the step losses, 0.65867 where both targets gave 0.73885 per
sample) is counted per step (keras_step_mean); both held here too (tests/migrate/test_keras_sequence_fit.py).
Not made faithful: the history entry TF 1.15 wrote for an epoch that ran no step (a stale value).
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_steps_run_out.py"


def test_fit_stops_after_the_epoch_a_finite_dataset_ran_out_in():
    import keras
    import tensorflow as tf

    from estimator_bridge.compat.keras_methods import fit_tf1

    x = np.arange(8, dtype=np.float32).reshape(8, 1)
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    history = fit_tf1(model, tf.data.Dataset.from_tensor_slices((x, x)).batch(4), steps_per_epoch=3, epochs=2, verbose=0)
    assert int(model.optimizer.iterations.numpy()) == 2 and len(history.history["loss"]) == 1
    repeated = fit_tf1(model, tf.data.Dataset.from_tensor_slices((x, x)).batch(4).repeat(), steps_per_epoch=3,
                       epochs=2, verbose=0)
    assert int(model.optimizer.iterations.numpy()) == 2 + 6 and len(repeated.history["loss"]) == 2


def test_a_sequence_is_not_taken_for_data_that_runs_out():
    import keras
    import tensorflow as tf

    from estimator_bridge.compat.keras_methods import runs_out_once

    class Batches(keras.utils.PyDataset):
        def __len__(self):
            return 2

        def __getitem__(self, index):
            return np.zeros((1, 1)), np.zeros((1, 1))

    assert runs_out_once(iter([])) and runs_out_once(tf.data.Dataset.range(3))
    assert not runs_out_once(Batches()) and not runs_out_once(tf.data.Dataset.range(3).repeat())
    assert not runs_out_once(np.zeros(3))


@pytest.mark.parametrize("target, expected", [
    ("3", "estimator_bridge.compat.keras_methods.fit_tf1(model, data, steps_per_epoch=3, epochs=2)\n"),
    ("2", "estimator_bridge.compat.keras_methods.fit_generator_tf1(model, data, 3, epochs=2)\n")])
def test_fit_generator_goes_through_the_tf1_helper(monkeypatch, target, expected):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, findings = migrate_text("import tensorflow as tf\nmodel = tf.keras.Sequential()\n"
                                      "model.fit_generator(data, 3, epochs=2)\n", "f.py")
    assert expected in migrated and findings == []
    assert migrate_text(migrated, "f.py")[0] == migrated


@pytest.mark.oracle
@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_fit_stops_where_tf_1_15_did(tmp_path, monkeypatch, target):
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    monkeypatch.delenv(ENVIRONMENT)
    assert findings == []
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    ours = run_current_json(path)
    for case in ("dataset_8", "sequence_8", "generator_8", "dataset_10", "sequence_10", "generator_10"):
        np.testing.assert_allclose(ours[case]["kernel"], oracle[case]["kernel"], rtol=1e-6, err_msg=case)
    for case in ("dataset_8", "sequence_8", "generator_8", "sequence_10"):
        np.testing.assert_allclose(ours[case]["loss"], oracle[case]["loss"], rtol=1e-6, err_msg=case)
    for case in ("dataset_10", "generator_10"):   # epoch 2 ran no step: TF 1.15 wrote a stale entry
        np.testing.assert_allclose(ours[case]["loss"][0], oracle[case]["loss"][0], rtol=1e-6, err_msg=case)
