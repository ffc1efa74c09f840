"""TF 1.x Keras' fit on keras Sequences and datasets after estimator-migrate, and on the runner (oracle tests).

TF 1.15 read a Sequence through one OrderedEnqueuer for the whole fit: passes over its indices, each
order drawn with Python's `random.shuffle` (the same list reshuffled every pass; fit's and
fit_generator's shuffle defaults to True), `on_epoch_end()` between passes, the epochs taking
steps_per_epoch batches after one another (a short Sequence cycled through, after a long one the next
epoch went on). Its training loss on a tf.data dataset (steps_per_epoch or not) was the mean of the
step losses. tests/migrate/programs/keras_sequence_fit.py measured before this fix (TF 2.21, Keras 3.15,
tf-keras 2.21): every shuffled Sequence trained on other batches from the second epoch on both targets
(kernel[0] -0.30199 vs TF 1.15's -0.34888 after fit_generator(seq, shuffle=True)), a short Sequence was
restarted each epoch (Keras 3) or stopped the fit (tf-keras), a long one restarted, Keras 3 reordered
a Sequence whose on_epoch_end reshuffles once more (after its shape probe), and the dataset's loss
was per sample (0.73885 where TF 1.15 reports 0.65867). fit_tf1 / fit_generator_tf1 now fit on
keras_tf1_sequence.stream (TF 1.x's batches) and count each training step's loss once on a dataset
(keras_step_mean): losses and kernels within 5e-7 of TF 1.15 on both targets. The runner (tf-keras'
v1 loops) already gave TF 1.15's numbers; its check stays as a guard.
"""

import random

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json
from tests.support.three_sides import run_side

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_sequence_fit.py"


class _Recorded:
    """A Sequence-like object that records its reads and on_epoch_end calls."""

    def __init__(self, length):
        self.length, self.events = length, []

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        self.events.append(index)
        return [index]

    def on_epoch_end(self):
        self.events.append("end")


def test_the_stream_is_tf1_passes_in_pythons_random_order():
    import itertools

    from estimator_bridge.compat.keras_tf1_sequence import stream

    random.seed(3)
    expected, order = [], list(range(4))
    for _ in range(3):
        random.shuffle(order)   # the same list shuffled again, as TF 1.x's enqueuer did
        expected += order
    random.seed(3)
    sequence = _Recorded(4)
    batches = list(itertools.islice(stream(sequence, shuffle=True), 10))
    assert batches == [(i,) for i in expected[:10]]   # lists become tuples
    assert sequence.events == [*expected[:4], "end", *expected[4:8], "end", *expected[8:10]]
    unshuffled = _Recorded(3)
    assert [b for b, in itertools.islice(stream(unshuffled, shuffle=False), 7)] == [0, 1, 2, 0, 1, 2, 0]
    assert list(stream(_Recorded(0))) == []


def test_is_sequence_knows_both_kerases_sequences():
    import keras
    import tf_keras

    from estimator_bridge.compat.keras_tf1_sequence import is_sequence

    class Keras3(keras.utils.Sequence):
        def __len__(self):
            return 1

        def __getitem__(self, index):
            return np.zeros((1, 1)), np.zeros((1, 1))

    class TfKeras(tf_keras.utils.Sequence):
        def __len__(self):
            return 1

        def __getitem__(self, index):
            return np.zeros((1, 1)), np.zeros((1, 1))

    assert is_sequence(Keras3()) and is_sequence(TfKeras())
    assert not is_sequence(_Recorded(2)) and not is_sequence(np.zeros(3))


def test_fit_of_anything_but_a_keras_model_is_called_as_written():
    from estimator_bridge.compat.keras_methods import fit_tf1

    class Scaler:
        def fit(self, *args, **kwargs):
            return args, kwargs

    x, y = np.zeros((4, 2)), np.zeros(4)
    assert fit_tf1(Scaler(), x) == ((x,), {})
    assert fit_tf1(Scaler(), x, y, epochs=2) == ((x, y), {"epochs": 2})
    assert fit_tf1(Scaler(), y=y, x=x) == ((x, y), {})
    assert fit_tf1(Scaler(), x, y, 4, 3) == ((x, y, 4, 3), {})


def test_a_datasets_training_loss_is_the_mean_of_the_step_losses():
    import keras
    import tensorflow as tf

    from estimator_bridge.compat.keras_methods import fit_tf1

    x = np.arange(10, dtype=np.float32).reshape(10, 1) / 10
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(keras.optimizers.SGD(0.0), "mse")
    steps = [float(np.mean((x[s:s + 4] * 1.0 - x[s:s + 4] * 2) ** 2)) for s in range(0, 10, 4)]
    history = fit_tf1(model, tf.data.Dataset.from_tensor_slices((x, 2 * x)).batch(4), epochs=1, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [np.mean(steps)], rtol=1e-6)
    arrays = model.fit(x, 2 * x, batch_size=4, epochs=1, verbose=0, shuffle=False)   # arrays: per sample after it
    np.testing.assert_allclose(arrays.history["loss"], [np.mean((x - 2 * x) ** 2)], rtol=1e-6)


SOURCE = ("import tensorflow as tf\n"
          "model = tf.keras.Sequential()\n"
          "model.fit(sequence, epochs=3)\n"
          "model.fit(x=dataset)\n"
          "model.fit(x, y, shuffle=False)\n")


@pytest.mark.parametrize("target", ["3", "2"])
def test_fit_on_x_alone_goes_through_the_tf1_helper(monkeypatch, target):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, findings = migrate_text(SOURCE, "f.py")
    assert findings == []
    assert "estimator_bridge.compat.keras_methods.fit_tf1(model, sequence, epochs=3)\n" in migrated
    assert "estimator_bridge.compat.keras_methods.fit_tf1(model, x=dataset)\n" in migrated
    assert "model.fit(x, y, shuffle=False)\n" in migrated   # arrays in their order: Keras' own batches
    assert migrate_text(migrated, "f.py")[0] == migrated


def _close(ours, oracle, label):
    for case, result in oracle.items():
        if case == "tensorflow":
            continue
        assert set(ours[case]) == set(result), (label, case)
        for key, values in result.items():
            # measured: within 4.9e-7 relative (float32 rounding of the trained kernels)
            np.testing.assert_allclose(ours[case][key], values, rtol=1e-6, atol=1e-7, err_msg=f"{label} {case} {key}")


@pytest.mark.oracle
@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_fit_reads_sequences_and_datasets_as_tf_1_15(tmp_path, monkeypatch, target):
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert findings == [] and migrate_text(migrated, str(PROGRAM))[0] == migrated
    monkeypatch.delenv(ENVIRONMENT)
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    _close(run_current_json(path), oracle, f"--keras {target}")


@pytest.mark.oracle
def test_the_runner_reads_sequences_and_datasets_as_tf_1_15(tmp_path):
    oracle = run_side("oracle", PROGRAM, [], tmp_path)
    runner = run_side("runner", PROGRAM, [], tmp_path)
    assert oracle.returncode == 0 and runner.returncode == 0, runner.stderr[-3000:]
    _close(runner.result, oracle.result, "runner")


SEEDED_AFTER_BUILDING = """    trained = model(["mae"] if case is dataset_steps_mae else ())
    # seeded after the model is built: Keras 3 and tf-keras draw their initializers' seeds from Python's
    # random (TF 1.x's did not), which would move every order drawn after them
    random.seed(number)
    np.random.seed(number)
"""
SEEDED_BEFORE_BUILDING = """    random.seed(number)
    np.random.seed(number)
    trained = model(["mae"] if case is dataset_steps_mae else ())
"""


@pytest.mark.oracle
@pytest.mark.parametrize("target", ["3", "2"])
def test_a_model_built_after_seeding_random_trains_on_tf_1_15s_batches(tmp_path, monkeypatch, target):
    """The program seeded as programs do, before building the model (Home-Monitor's 11-TrainTPU.py,
    2019: `random.seed`, 17 layers, `fit_generator(flow_from_directory(...))`). Keras 3 and tf-keras
    drew a seed per unseeded initializer from Python's `random`, so every shuffled Sequence's order
    moved (the migrated Home-Monitor program took another first batch); compat/keras_default_seeds.py
    leaves the program's generator alone."""
    source = PROGRAM.read_text()
    assert SEEDED_AFTER_BUILDING in source
    source = source.replace(SEEDED_AFTER_BUILDING, SEEDED_BEFORE_BUILDING)
    (tmp_path / "tf115").mkdir()
    original = tmp_path / "tf115" / PROGRAM.name
    original.write_text(source)
    oracle = run_json(oracle_python("tf115"), original)
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, findings = migrate_text(source, str(PROGRAM))
    assert findings == []
    monkeypatch.delenv(ENVIRONMENT)
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    _close(run_current_json(path), oracle, f"--keras {target}, seeded before building")
