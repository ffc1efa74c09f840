"""The compat runner runs legacy Keras on Keras 2 (tf-keras), in the mode of the program's era.

Oracle test: `real_patterns/keras_2019_program.py` (a 2019-style TF 1.x Keras program: a TF1
optimizer in compile, fit_generator, `fit` on whole arrays with steps_per_epoch and no batch
size, `.h5` weights to a path built at run time, predict on 33 rows, `metrics=['accuracy']`, the
Colab version check through `distutils.version`) runs unchanged on TF 1.15 and under the runner;
everything it prints must agree. On Keras 3 patched to act like Keras 2 the runner stopped at
`distutils.version` (AttributeError: TF 1.15's `import tensorflow` had imported it), then at
`save_weights('.../start.h5')` (Keras 3 wants `.weights.h5`), then in `predict` ('Invalid reduction
dimension ... [Op:All]': the runner's TF1 Tensor equality broke Keras 3's own `==`), and its
`fit(arrays, steps_per_epoch=2)` cut the arrays into batches where TF 1.15 fed them whole.

Measured (TF 2.21 + tf-keras 2.21.0 in graph mode vs TF 1.15, 2026-11-27): losses within 1.1e-7,
predictions 3.1e-7, weights 5.4e-7 relative (numbers.py's floor 1e-3), the evaluation and
accuracies equal; history keys TF 1.x's ('acc'). Held to 1e-6.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from estimator_bridge.compat.program_era import era_of
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "real_patterns" / "keras_2019_program.py"
RTOL = 1e-6


def run_under_runner(script, *args, cwd=None):
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    completed = subprocess.run([sys.executable, "-m", "estimator_bridge.run", str(script), *map(str, args)],
                               capture_output=True, text=True, timeout=600, env=env, cwd=cwd or REPO_ROOT)
    assert completed.returncode == 0, completed.stderr[-4000:]
    lines = [line for line in completed.stdout.splitlines() if line.startswith("{")]
    assert lines, completed.stdout[-2000:]
    return json.loads(lines[-1])


def assert_same_results(ours, expected, where=""):
    if isinstance(expected, dict):
        assert sorted(ours) == sorted(expected), where
        for key in expected:
            assert_same_results(ours[key], expected[key], f"{where}/{key}")
    elif isinstance(expected, list) and expected and isinstance(expected[0], list):
        for index, (mine, theirs) in enumerate(zip(ours, expected)):
            assert_same_results(mine, theirs, f"{where}[{index}]")
    else:
        assert_close(np.array(ours), np.array(expected), rtol=RTOL, what=where)


@pytest.mark.oracle
def test_a_2019_keras_program_runs_unchanged_with_tf115s_numbers_and_names(tmp_path):
    (tmp_path / "oracle").mkdir()
    (tmp_path / "runner").mkdir()
    expected = run_json(oracle_python("tf115"), PROGRAM, str(tmp_path / "oracle"))
    ours = run_under_runner(PROGRAM, tmp_path / "runner")
    assert sorted(ours["classifier"]) == ["acc", "loss"]  # TF 1.x's name for metrics=['accuracy']
    assert_same_results(ours, expected)


@pytest.mark.oracle
def test_the_tf1_namespace_imported_directly_serves_the_runners_keras(tmp_path):
    """verify's swapped side (`import estimator_bridge.compat as tf`, nothing else changed) gets the
    runner's Keras: tf-keras in the program's era's mode. It ran on Keras 3 once the process-wide
    Keras 3 patches were deleted, and stopped at `compile(tf.train.AdamOptimizer(...))`: "Could not
    interpret optimizer identifier" (the shipped keras_tpu_weights example)."""
    (tmp_path / "oracle").mkdir()
    (tmp_path / "swapped").mkdir()
    expected = run_json(oracle_python("tf115"), PROGRAM, str(tmp_path / "oracle"))
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    completed = subprocess.run([sys.executable, "-m", "verify.swapped_imports", str(PROGRAM), str(tmp_path / "swapped")],
                               capture_output=True, text=True, timeout=600, env=env, cwd=REPO_ROOT)
    assert completed.returncode == 0, completed.stderr[-4000:]
    ours = json.loads([line for line in completed.stdout.splitlines() if line.startswith("{")][-1])
    assert sorted(ours["classifier"]) == ["acc", "loss"]
    assert_same_results(ours, expected)


API_PROGRAM = """
import json
import tensorflow as tf
import keras
from keras.layers import Dense
from tensorflow.keras.layers import GRU
import keras.backend as K
from keras.layers.advanced_activations import LeakyReLU
{tf2_line}
print(json.dumps({{"tf.keras": tf.keras.__name__, "keras": keras.__name__, "same Dense": Dense is tf.keras.layers.Dense,
                  "GRU reset_after": GRU(2).reset_after, "K": K.__name__, "LeakyReLU": LeakyReLU.__module__,
                  "eager": tf.executing_eagerly()}}))
"""


@pytest.mark.parametrize("tf2", [False, True], ids=["tf1_program", "tf2_program"])
def test_tf_keras_and_standalone_keras_are_keras_2_in_the_eras_api(tmp_path, tf2):
    """tf.keras, `import keras` and `from tensorflow.keras.layers import ...` are all Keras 2 (tf-keras):
    TF 1.x's API (GRU without reset_after) in graph mode for a TF 1.x Keras program, TF 2.x's eagerly
    for a TF 2.x one; standalone Keras 2.x's module paths (keras.layers.advanced_activations) too."""
    program = tmp_path / "apis.py"
    program.write_text(API_PROGRAM.format(tf2_line="tf.constant(1.0).numpy()" if tf2 else ""))
    api = "tf_keras.api._v2.keras" if tf2 else "tf_keras.api._v1.keras"
    assert run_under_runner(program, cwd=tmp_path) == {
        # tf.keras: the namespace's module over the era's API (for its Input in a traced model_fn)
        "tf.keras": "tensorflow.keras", "keras": api, "same Dense": True, "GRU reset_after": tf2, "K": f"{api}.backend",
        "LeakyReLU": "tf_keras.src.layers.activation.leaky_relu", "eager": tf2}


@pytest.mark.parametrize("source, tf2, graph", [
    ("import tensorflow as tf\nmodel = tf.keras.Sequential()\n", False, True),
    ('"""A Keras program (no Estimator)."""\nimport keras\n', False, True),
    ("import tensorflow as tf\nm = tf.keras.Sequential()\ne = tf.estimator.Estimator(model_fn)\n", False, False),
    ("import tensorflow as tf\nx = tf.constant(1.0).numpy()\nm = tf.keras.Sequential()\n", True, False),
    ("# IPython: %tensorflow_version 2.x\nimport tensorflow as tf\nm = tf.keras.Sequential()\n", True, False),
    ("import tensorflow as tf\ns = tf.distribute.experimental.TPUStrategy(r)\nm = tf.keras.Sequential()\n", True, False),
    ("import tensorflow as tf\nsess = tf.Session()\n", False, False),
])
def test_the_era_and_keras_mode_come_from_the_code_not_its_comments(source, tf2, graph):
    era = era_of([source])
    assert (era.tf2, era.keras_graph_mode) == (tf2, graph), era.reason


WEIGHTS_H5_PROGRAM = """
import json, sys
import h5py
import numpy as np
import tensorflow as tf

def build():
  return tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh", input_shape=(4,)), tf.keras.layers.Dense(1)])

x = np.random.RandomState(0).randn(8, 4).astype(np.float32)
model = build()
model.set_weights([np.random.RandomState(1).uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
model.train_on_batch(x, np.ones((8, 1), np.float32))
model.save_weights("bard.weights.h5", overwrite=True)
restored = build()
restored.load_weights("bard.weights.h5")
with h5py.File("bard.weights.h5", "r") as f:
  names = [n.decode() if isinstance(n, bytes) else n for n in f.attrs["layer_names"]]
print(json.dumps({"layers": len(names), "predictions": restored.predict(x).ravel().tolist(),
                  "trained": model.predict(x).ravel().tolist()}))
"""


@pytest.mark.oracle
def test_a_weights_h5_name_is_written_and_read_as_hdf5_in_graph_mode(tmp_path):
    """tensorflow/tpu shakespeare_lstm.py with its weights file named `bard.weights.h5` (the test bed's
    name, which every Keras takes): TF 1.15 wrote HDF5; under the runner (tf-keras in graph mode)
    `save_weights` stopped with "NotImplementedError: numpy() is only available when eager execution
    is enabled" (tf-keras' Keras 3-style weights files need eager execution)."""
    script = tmp_path / "weights_h5.py"
    script.write_text(WEIGHTS_H5_PROGRAM)
    (tmp_path / "oracle").mkdir()
    (tmp_path / "runner").mkdir()
    expected = run_json(oracle_python("tf115"), script, cwd=tmp_path / "oracle")
    ours = run_under_runner(script, cwd=tmp_path / "runner")
    assert ours["layers"] == expected["layers"] == 2  # HDF5 with TF 1.x's layout (layer_names)
    assert_same_results(ours, expected)
