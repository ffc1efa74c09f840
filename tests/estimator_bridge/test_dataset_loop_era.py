"""A program that iterates a tf.data.Dataset in Python was written for eager execution: the runner
runs it eagerly, with TF 2.x's Keras.

Found on TensorFlow's "Create an Estimator from a Keras model" tutorial as copied in
niujie/TensorFlow_Tutorials (Estimator/Keras_model_Estimator.py): plain `import tensorflow`, a
Keras Sequential model, and at module level `for features_batch, labels_batch in
input_fn().take(1): print(...)`. With its estimator replaced by model.fit (model_to_estimator's
finding), nothing in it was on the runner's list of TF 2.x markers, so the runner took it for a
TF 1.x Keras program, ran it in graph mode and the loop raised "`tf.data.Dataset` only supports
Python-style iteration in eager mode". TF 1.x graph mode refused such loops too, so they mark
eager (TF 2.x) code.

Oracle test: the same shape of program on TF 2.15 (the TensorFlow it was written for) and under
the runner prints the same batch and the same losses and weights after three fit steps.
"""

from __future__ import annotations

import numpy as np
import pytest

from estimator_bridge.compat.dataset_loops import iterates_a_dataset
from estimator_bridge.compat.program_era import era_of
from tests.estimator_bridge.test_compat_keras_legacy import run_under_runner
from tests.support.numbers import assert_close
from tests.support.oracles import oracle_python, run_json


@pytest.mark.parametrize("source, loops", [
    ("for f, l in input_fn().take(1):\n    print(f)\n", True),
    ("ds = tf.data.Dataset.from_tensor_slices(x)\nfor b in ds:\n    pass\n", True),
    ("ds = tf.data.TFRecordDataset(files)\nds = ds.map(parse)\nbatch = next(iter(ds))\n", True),
    ("import tensorflow_datasets as tfds\nfor ex in tfds.load('mnist', split='train'):\n    pass\n", True),
    ("xs = [b for b in dataset.batch(4).repeat()]\n", True),
    # not datasets: numpy, a process pool, a plain list, a name nothing assigned a dataset
    ("import numpy as np\nfor v in np.take(a, idx):\n    pass\nfor v in np.repeat(a, 2):\n    pass\n", False),
    ("from multiprocessing import Pool\nfor r in Pool(2).map(f, xs):\n    pass\n", False),
    ("for i in range(3):\n    pass\nfor k in d.items():\n    pass\n", False),
    ("for batch in train_data:\n    sess.run(op, {x: batch})\n", False),
    ("it = dataset.make_one_shot_iterator()\nx = it.get_next()\n", False),
])
def test_a_python_loop_over_a_dataset_is_recognised(source, loops):
    assert iterates_a_dataset(source) is loops


@pytest.mark.parametrize("source, tf2, graph", [
    # the tutorial's shape: no other TF 2.x marker, Keras without an Estimator
    ("import tensorflow as tf\nm = tf.keras.Sequential()\nfor f, l in input_fn().take(1):\n    print(f)\n",
     True, False),
    # a TF 1.x Keras program that feeds a dataset to fit stays TF 1.x (graph mode)
    ("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(ds.batch(4), steps_per_epoch=2)\n", False, True),
])
def test_a_dataset_loop_makes_the_program_tf2(source, tf2, graph):
    era = era_of([source])
    assert (era.tf2, era.keras_graph_mode) == (tf2, graph), era.reason


PROGRAM = '''
import json
import numpy as np
import tensorflow as tf

model = tf.keras.models.Sequential([
    tf.keras.layers.Dense(3, activation="relu", input_shape=(4,),
                          kernel_initializer=tf.keras.initializers.Constant(0.1)),
    tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones"),
])
model.compile(loss="binary_crossentropy", optimizer=tf.keras.optimizers.SGD(0.5))


def input_fn():
    features = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(8, 4)
    labels = np.array([0, 1, 1, 0, 1, 0, 0, 1], dtype=np.float32)
    return tf.data.Dataset.from_tensor_slices((features, labels)).batch(4).repeat()


for features_batch, labels_batch in input_fn().take(1):
    first = np.asarray(features_batch).tolist()  # as the tutorial printed it: no .numpy(), a marker of its own

history = model.fit(input_fn(), steps_per_epoch=3, epochs=1, verbose=0)
print(json.dumps({"first batch": first, "loss": history.history["loss"],
                  "weights": [w.tolist() for w in model.get_weights()]}))
'''


@pytest.mark.oracle
def test_a_tf2_program_with_a_dataset_loop_runs_eagerly_with_tf215s_numbers(tmp_path):
    program = tmp_path / "keras_dataset_loop.py"
    program.write_text(PROGRAM)
    expected = run_json(oracle_python("tf215"), program)
    ours = run_under_runner(program, cwd=tmp_path)
    assert ours["first batch"] == expected["first batch"]
    assert_close(np.array(ours["loss"]), np.array(expected["loss"]), rtol=1e-6, what="loss")
    for index, (mine, theirs) in enumerate(zip(ours["weights"], expected["weights"])):
        assert_close(np.array(mine), np.array(theirs), rtol=1e-6, what=f"weight {index}")
