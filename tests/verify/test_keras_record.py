"""verify/keras_record.py: a Keras notebook's fit logs, evaluate/predict results and final weights,
and the oracle's initial weights as every other run's start (docs/verify.md, "Notebooks").

The oracle tests run one notebook in TF 1.15 (whose Keras logs a batch's own loss) and on current
TensorFlow (Keras 3: running means) from TF 1.15's start weights: both must record the same
running means, and the first batch (before any update) the same loss.
"""

import json
import os
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from tests.support.oracles import oracle_python
from verify.keras_record import _per_batch, _rows_logged, _structure_difference
from verify.pipeline import oracle_has_onednn
from verify.sides import NOTEBOOK_SCRIPT, REPO_ROOT
from verify.tag_names import align_keras_log_names

CELLS = (
    "import numpy as np\nimport tensorflow as tf",
    "rng = np.random.RandomState(0)\nx = rng.rand(48, 6).astype(np.float32)\n"
    "y = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 48)]\nUNITS = 8",
    "l = tf.keras.layers\n"
    "model = tf.keras.Sequential([l.Dense(UNITS, activation='relu', input_shape=(6,)),\n"
    "                             l.BatchNormalization(), l.Dense(3, activation='softmax')])\n"
    "model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss='categorical_crossentropy',\n"
    "              metrics=['accuracy'])",
    "history = model.fit(x, y, batch_size=8, epochs=2, steps_per_epoch=None, shuffle=False, verbose=0)\n"
    "scores = model.evaluate(x, y, batch_size=16, verbose=0)\n"
    "probabilities = model.predict(x[:4])",
)


def _notebook(tmp_path, units=8):
    notebook = nbformat.v4.new_notebook()
    cells = [cell.replace("UNITS = 8", f"UNITS = {units}") for cell in CELLS]
    notebook.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
    path = tmp_path / f"keras_{units}.ipynb"
    path.write_text(nbformat.writes(notebook))
    return path


def _run(python, notebook, model_dir, start=None):
    env = dict(os.environ, TF_ENABLE_ONEDNN_OPTS="0", TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=str(REPO_ROOT))
    options = ["--model-dir", str(model_dir)] + (["--keras-start", str(start)] if start else [])
    completed = subprocess.run([str(python), str(NOTEBOOK_SCRIPT), *options, str(notebook)],
                               capture_output=True, text=True, timeout=600, env=env)
    record = model_dir / "keras_record"
    return completed, (json.loads((record / "record.json").read_text()) if (record / "record.json").exists()
                       else None)


def _check_record(record):
    scalars = record["scalars"]
    losses = scalars["keras/batch/loss"]
    assert sorted(losses, key=int) == [str(step) for step in range(1, 13)]  # 48 / 8 = 6 batches x 2 epochs
    # The recorded batch values are each batch's own: the epoch's loss is their mean (equal batches).
    for epoch, steps in (("1", range(1, 7)), ("2", range(7, 13))):
        mean = sum(losses[str(step)] for step in steps) / 6
        assert mean == pytest.approx(scalars["keras/epoch/loss"][epoch], rel=1e-5)
    assert list(record["evaluation"]["keras_evaluate"]) == ["result0", "result1"]
    assert len(record["outputs"]["keras_predict.0"]) == 12  # 4 rows x 3 probabilities


def test_a_keras_notebook_records_its_fit_and_restarts_from_its_own_start(tmp_path):
    notebook = _notebook(tmp_path)
    first, record = _run(sys.executable, notebook, tmp_path / "first")
    assert first.returncode == 0, first.stderr
    _check_record(record)
    start = tmp_path / "first" / "keras_record" / "keras_start.npz"
    with np.load(start) as saved:
        assert sorted(key for key in saved.files if key != "__structure__") == [
            "keras/model0/layer00/bias", "keras/model0/layer00/kernel", "keras/model0/layer01/beta",
            "keras/model0/layer01/gamma", "keras/model0/layer01/moving_mean", "keras/model0/layer01/moving_variance",
            "keras/model0/layer02/bias", "keras/model0/layer02/kernel"]
    again, record_again = _run(sys.executable, notebook, tmp_path / "again", start)
    assert again.returncode == 0, again.stderr
    assert record_again == record  # the same start, the same data: the same numbers
    with np.load(tmp_path / "first" / "keras_record" / "final_weights.npz") as final:
        assert final["keras/model0/layer01/moving_variance"].shape == (8,)


def test_a_model_built_differently_stops_with_ver008_naming_the_weights(tmp_path):
    _, _ = _run(sys.executable, _notebook(tmp_path), tmp_path / "oracle")
    start = tmp_path / "oracle" / "keras_record" / "keras_start.npz"
    completed, _ = _run(sys.executable, _notebook(tmp_path, units=5), tmp_path / "side", start)
    assert completed.returncode != 0
    text = (tmp_path / "side" / "keras_record" / "start_mismatch.txt").read_text()
    assert "VER008" in completed.stderr
    assert "model 0's weights differ from the oracle's" in text
    assert "keras/model0/layer00/kernel: oracle [6, 8] (Dense), ours [6, 5] (Dense)" in text


def test_verify_reads_what_the_recorder_writes():
    from verify import keras_record, pipeline

    assert (pipeline.RECORD_FOLDER, pipeline.START, pipeline.MISMATCH) == (
        keras_record.RECORD_FOLDER, keras_record.START, keras_record.MISMATCH)


def test_running_means_are_told_apart_from_per_batch_values_by_the_epochs_value():
    running = [(1, 3.0, 0), (2, 2.0, 0), (3, 3.0, 0)]  # Keras 3 (and TF 1.x's stateful metrics): the epoch's value last
    assert _per_batch(running, 3.0) == [(1, 3.0), (2, 1.0), (3, 5.0)]
    per_batch = [(1, 3.0, 0), (2, 1.0, 0), (3, 5.0, 0)]  # TF 1.x's batch loss: the epoch's value is their mean
    assert _per_batch(per_batch, 3.0) == [(1, 3.0), (2, 1.0), (3, 5.0)]


def test_a_running_mean_is_weighted_by_the_rows_of_each_batch_where_train_step_reported_them():
    """GoogleCloudPlatform/cloudml-samples' 2018 tpu_keras trainer: 100 rows in batches of 32, the last
    of 4. TF 2.x's Keras and Keras 3 weight their running loss by rows; read with equal weights, the
    last batch's own loss came out 0.70149 where TF 1.15 logged 0.73055 (the same training: final
    weights equal)."""
    own = [0.5, 0.7, 0.6, 2.0]
    rows = [32, 32, 32, 4]
    means = [sum(o * r for o, r in zip(own[:k], rows[:k])) / sum(rows[:k]) for k in range(1, 5)]
    logged = [(k + 1, mean, count) for k, (mean, count) in enumerate(zip(means, rows))]
    recovered = [value for _, value in _per_batch(logged, means[-1])]
    assert recovered == pytest.approx(own, rel=1e-12)


def test_tf1_batch_logs_give_the_rows_of_each_batch():
    """TF 1.x's loops log each batch's rows as `size` (1 per step where whole arrays are fed each step:
    equal weights, as before); nothing logged is unknown (0)."""
    assert [_rows_logged(logs) for logs in ({"batch": 4, "size": 4, "acc": 0.1}, {"size": 1}, {"loss": 1.0},
                                             None, {"size": None})] == [4, 1, 0, 0, 0]


@pytest.mark.oracle
def test_a_short_last_batch_has_its_own_accuracy_in_tf115_and_keras_3(tmp_path):
    """tagtag/Behaviormetric's 3_3_convolution_tpu notebook: 36 rows in batches of 8, the last of 4.
    TF 1.15 logs its stateful accuracy as a running mean weighted by rows; read with equal weights the
    last batch's accuracy came out 0.18 where the batch had 0.25 (Keras 3 recorded 0.25, from
    train_step's rows): every Keras 3 side failed on it. Both now record each batch's own value."""
    notebook = nbformat.v4.new_notebook()
    # graph-seeded start weights: an epoch accuracy of 11/44 or 22/44 would hide the equal-weight reading
    cells = [CELLS[0] + "\ntf.compat.v1.set_random_seed(1)"] + [cell.replace("48", "44") for cell in CELLS[1:]]
    notebook.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
    path = tmp_path / "short_last_batch.ipynb"
    path.write_text(nbformat.writes(notebook))
    oracle, theirs = _run(oracle_python("tf115"), path, tmp_path / "tf115")
    assert oracle.returncode == 0, oracle.stderr[-3000:]
    start = tmp_path / "tf115" / "keras_record" / "keras_start.npz"
    current, ours = _run(sys.executable, path, tmp_path / "current", start)
    assert current.returncode == 0, current.stderr[-3000:]
    key = next(k for k in theirs["scalars"] if k.startswith("keras/batch/acc"))
    accuracy = theirs["scalars"][key]
    assert sorted(accuracy, key=int) == [str(step) for step in range(1, 13)]  # 6 batches x 2 epochs
    for step in accuracy:   # a batch of 8 (or 4) rows: a multiple of 1/8
        assert accuracy[step] * 8 == pytest.approx(round(accuracy[step] * 8), abs=1e-4), (step, accuracy[step])
    ours_key = next(k for k in ours["scalars"] if k.startswith("keras/batch/acc"))
    for step, value in accuracy.items():
        assert ours["scalars"][ours_key][step] == pytest.approx(value, abs=1e-6), step


@pytest.mark.oracle
def test_a_tf2_model_built_by_its_first_step_starts_from_the_oracles_weights(tmp_path):
    """tensorflow/tpu's mnist_tf2_with_summary.py (TF 2.x: custom layers first in a Sequential, no input
    shape, `fit` on a dataset): TF 2.x's Keras and Keras 3 build such a model inside the first step,
    after `on_train_begin`; no start weights were taken and the TF 2.15 oracle runs ended in VER001.
    Built from the dataset's element spec before fit, it starts every side from TF 2.15's weights (the
    runner's too, whose `tf.data` is TF 1.x's: the program's compat.v2 dataset is read by its spec)."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(cell) for cell in (
        "import numpy as np\nimport tensorflow.compat.v2 as tf\ntf.enable_v2_behavior()", CELLS[1],
        "class Identity(tf.keras.layers.Layer):\n    def call(self, x):\n        return x\n"
        "model = tf.keras.Sequential([Identity(), tf.keras.layers.Dense(UNITS, activation='relu'),\n"
        "                             tf.keras.layers.Dense(3)])\n"
        "model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss='mse')\n"
        "data = tf.data.Dataset.from_tensor_slices((x, y)).batch(8, drop_remainder=True)\n"
        "history = model.fit(data, epochs=1, verbose=0)")]
    path = tmp_path / "built_in_fit.ipynb"
    path.write_text(nbformat.writes(notebook))
    oracle, theirs = _run(oracle_python("tf215"), path, tmp_path / "tf215")
    assert oracle.returncode == 0, oracle.stderr[-3000:]
    start = tmp_path / "tf215" / "keras_record" / "keras_start.npz"
    assert start.exists()
    current, ours = _run(sys.executable, path, tmp_path / "current", start)
    assert current.returncode == 0, current.stderr[-3000:]
    assert ours["scalars"]["keras/batch/loss"]["1"] == pytest.approx(theirs["scalars"]["keras/batch/loss"]["1"],
                                                                     rel=1e-6)
    # the compat runner: its `tf.data` is TF 1.x's namespace, the program's dataset TF 2.x's class
    runner, by_runner = _run_under_runner(path, tmp_path / "runner", start)
    assert runner.returncode == 0, runner.stderr[-3000:]
    assert by_runner["scalars"]["keras/batch/loss"]["1"] == pytest.approx(
        theirs["scalars"]["keras/batch/loss"]["1"], rel=1e-6)


def _run_under_runner(notebook, model_dir, start):
    env = dict(os.environ, TF_ENABLE_ONEDNN_OPTS="0", TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=str(REPO_ROOT))
    completed = subprocess.run([sys.executable, "-m", "estimator_bridge.run", str(NOTEBOOK_SCRIPT), "--model-dir",
                                str(model_dir), "--keras-start", str(start), str(notebook)],
                               capture_output=True, text=True, timeout=600, env=env)
    record = model_dir / "keras_record" / "record.json"
    return completed, (json.loads(record.read_text()) if record.exists() else None)


def test_structure_differences_name_what_is_on_one_side_only():
    oracle = [["keras/model0/layer00/kernel", [6, 8], "Dense"], ["keras/model0/layer01/gamma", [8], "BatchNormalization"]]
    ours = [["keras/model0/layer00/kernel", [6, 8], "Dense"]]
    assert "only in the oracle: keras/model0/layer01/gamma [8] (BatchNormalization)" in _structure_difference(
        oracle, ours, 0)
    assert _structure_difference(oracle, oracle, 0) == ""
    assert "the oracle's program used 1 model(s)" in _structure_difference([], ours, 1)


def test_keras_log_keys_of_two_eras_are_one_series():
    oracle = {"scalars": {"keras/epoch/acc": {"1": 0.5}, "keras/epoch/lr": {"1": 0.1}, "keras/epoch/loss": {"1": 1.0}}}
    side = {"scalars": {"keras/epoch/accuracy": {"1": 0.5}, "keras/epoch/learning_rate": {"1": 0.1},
                        "keras/epoch/loss": {"1": 1.0}}}
    aligned, notes = align_keras_log_names(oracle, side)
    assert aligned["scalars"] == oracle["scalars"] and len(notes) == 2
    assert align_keras_log_names(oracle, oracle) == (oracle, [])


def test_only_tf2_oracles_alternate_onednn():
    assert oracle_has_onednn("2.15.1") and oracle_has_onednn("2.21.0")
    assert not oracle_has_onednn("1.15.0") and not oracle_has_onednn("2.4.0") and not oracle_has_onednn("")


@pytest.mark.oracle
def test_tf115s_record_and_start_weights_carry_over_to_keras_3(tmp_path):
    """TF 1.15's Keras logs each batch's own loss (its stateful accuracy as a running value),
    Keras 3 running means; its Sequential lists weights layer by layer: keyed by layer and name,
    TF 1.15's initial weights load into Keras 3's model, so the first batch's loss (before any
    update) is the same number on both."""
    notebook = _notebook(tmp_path)
    oracle, theirs = _run(oracle_python("tf115"), notebook, tmp_path / "tf115")
    assert oracle.returncode == 0, oracle.stderr
    _check_record(theirs)
    start = tmp_path / "tf115" / "keras_record" / "keras_start.npz"
    current, ours = _run(sys.executable, notebook, tmp_path / "current", start)
    assert current.returncode == 0, current.stderr
    _check_record(ours)
    assert ours["scalars"]["keras/batch/loss"]["1"] == pytest.approx(theirs["scalars"]["keras/batch/loss"]["1"],
                                                                     rel=1e-6)
    # Batch norm and SGD on current Keras from the same start: within kernel rounding after 12 steps
    # (Keras 3's moving variance differs on 2-D inputs by nothing: Keras 2 used the biased one there too).
    for step in ("6", "12"):
        assert ours["scalars"]["keras/batch/loss"][step] == pytest.approx(
            theirs["scalars"]["keras/batch/loss"][step], rel=1e-4)


def test_a_tf_keras_notebook_is_recorded_too(tmp_path):
    """estimator-migrate --keras 2 writes tf_keras models: the recorder's callback must be a tf_keras one
    (a Keras 3 callback failed in tf_keras' fit: no `_implements_train_batch_hooks`)."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(cell.replace("tf.keras", "tf_keras").replace(
        "import tensorflow as tf", "import tensorflow as tf\nimport tf_keras")) for cell in CELLS]
    path = tmp_path / "tf_keras.ipynb"
    path.write_text(nbformat.writes(notebook))
    completed, record = _run(sys.executable, path, tmp_path / "run")
    assert completed.returncode == 0, completed.stderr[-3000:]
    _check_record(record)


@pytest.mark.oracle
def test_a_sequential_without_input_shape_first_used_by_predict_runs_in_tf115(tmp_path):
    """TF 1.15's `weights` of a Sequential built by its first call raises ValueError before that call
    (TF 2.x's Keras returns []): the recorder asked it at `predict` and stopped the oracle run of
    training-data-analyst's Taxifare notebook (`model.predict(one_item, steps=1)` builds the model
    before `.summary()` and `fit`). Unbuilt, the start weights are taken at `fit` as for a subclassed
    model; the program's own numbers are recorded."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(cell) for cell in (
        CELLS[0], CELLS[1],
        "model = tf.keras.Sequential([tf.keras.layers.Dense(UNITS, activation='relu'), tf.keras.layers.Dense(3)])\n"
        "model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss='mse')\n"
        "first = model.predict(x[:2])\n"
        "history = model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)\n"
        "probabilities = model.predict(x[:4])")]
    path = tmp_path / "unbuilt.ipynb"
    path.write_text(nbformat.writes(notebook))
    completed, record = _run(oracle_python("tf115"), path, tmp_path / "tf115")
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert sorted(record["scalars"]["keras/batch/loss"], key=int) == [str(step) for step in range(1, 7)]
    assert [len(record["outputs"][key]) for key in ("keras_predict.0", "keras_predict.1")] == [6, 12]
    with np.load(tmp_path / "tf115" / "keras_record" / "keras_start.npz") as start:
        assert start["keras/model0/layer00/kernel"].shape == (6, 8)
