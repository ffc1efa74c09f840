"""Code a program runs only `if tf.executing_eagerly():` does not make it a TF 2.x program.

training-data-analyst's 07_Keras_Flowers_TPU_squeezenet notebook (2db8759aa, 2019-01, TF 1.13:
tf.contrib, keras_to_tpu_model, eager execution left off) reads a few dataset items with `for ...
in dataset` and `.numpy()` under `if tf.executing_eagerly():`, and through a tf.Session in the
`else`. Both are markers of eager (TF 2.x) code, so the runner ran it as TF 2.x Keras and its
`history.history['acc']` (TF 1.x's name of 'accuracy') raised KeyError after training. The first
branch of such an `if` is no longer read for the markers.

Oracle test: the same shape of program prints TF 1.15's history keys and numbers under the runner.
"""

from __future__ import annotations

import numpy as np
import pytest

from estimator_bridge.compat.program_era import era_of, without_eager_branches
from tests.estimator_bridge.test_compat_keras_legacy import run_under_runner
from tests.support.numbers import assert_close
from tests.support.oracles import oracle_python, run_json

GUARDED = '''import tensorflow as tf
def first_items(dataset):
  if tf.executing_eagerly():
    for images, labels in dataset:
      return images.numpy(), labels.numpy()
  else:
    with tf.Session() as session:
      return session.run(dataset.make_one_shot_iterator().get_next())
'''


@pytest.mark.parametrize("source, tf2", [
    (GUARDED + "model = tf.keras.Sequential()\n", False),
    # the branch is what the guard spares: eager code elsewhere still marks TF 2.x
    (GUARDED + "model = tf.keras.Sequential()\nprint(tf.ones([2]).numpy())\n", True),
    (GUARDED.replace("tf.executing_eagerly()", "use_numpy") + "model = tf.keras.Sequential()\n", True),
    (GUARDED.replace("if tf.executing_eagerly():", "if not tf.executing_eagerly() or eager:")
     + "model = tf.keras.Sequential()\n", False),
])
def test_an_eager_branch_does_not_mark_tf2_code(source, tf2):
    assert era_of([source]).tf2 is tf2, era_of([source]).reason


def test_the_blanked_branch_keeps_line_numbers():
    blanked = without_eager_branches(GUARDED)
    assert blanked.count("\n") == GUARDED.count("\n") and ".numpy()" not in blanked
    assert "make_one_shot_iterator" in blanked
    assert without_eager_branches("if (:\n") == "if (:\n"  # what does not parse is read as it is


PROGRAM = '''
import json
import numpy as np
import tensorflow as tf

features = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(8, 4)
labels = np.eye(2, dtype=np.float32)[[0, 1, 1, 0, 1, 0, 0, 1]]


def dataset():
  return tf.data.Dataset.from_tensor_slices((features, labels)).batch(4).repeat()


def first_labels(data):
  if tf.executing_eagerly():
    for _, batch in data:
      return batch.numpy().tolist()
  else:
    with tf.Session() as session:
      return session.run(data.make_one_shot_iterator().get_next())[1].tolist()


model = tf.keras.models.Sequential([
    tf.keras.layers.Dense(3, activation="relu", input_shape=(4,),
                          kernel_initializer=tf.keras.initializers.Constant(0.1)),
    tf.keras.layers.Dense(2, activation="softmax", kernel_initializer="ones"),
])
model.compile(loss="categorical_crossentropy", optimizer=tf.keras.optimizers.SGD(0.5), metrics=["accuracy"])
if False:
  model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=None)
first = first_labels(dataset())
history = model.fit(dataset(), steps_per_epoch=3, epochs=2, verbose=0)
print(json.dumps({"first": first, "keys": sorted(history.history), "loss": [float(v) for v in history.history["loss"]],
                  "acc": [float(v) for v in history.history["acc"]], "weights": [w.tolist() for w in model.get_weights()]}))
'''


@pytest.mark.oracle
def test_a_tf1_program_with_an_eager_branch_runs_as_tf115_did(tmp_path):
    program = tmp_path / "keras_eager_branch.py"
    program.write_text(PROGRAM)
    expected = run_json(oracle_python("tf115"), program)
    ours = run_under_runner(program, cwd=tmp_path)
    assert ours["keys"] == expected["keys"] == ["acc", "loss"]
    assert ours["first"] == expected["first"]
    assert_close(np.array(ours["loss"]), np.array(expected["loss"]), rtol=1e-6, what="loss")
    assert_close(np.array(ours["acc"]), np.array(expected["acc"]), rtol=1e-6, what="acc")
    for index, (mine, theirs) in enumerate(zip(ours["weights"], expected["weights"])):
        assert_close(np.array(mine), np.array(theirs), rtol=1e-6, what=f"weight {index}")
