"""`tf.estimator.inputs.pandas_input_fn(..., shuffle=False)` gives TF 1.15's batches, run unchanged and migrated.

tensorflow/hub's Kaggle text-classification colab (a held-out draw) predicted through
`tf.estimator.inputs.pandas_input_fn(df, df['Sentiment'], shuffle=False)`, which TF 2.16 removed
with tf.estimator: the compat runner raised UnsupportedName and the codemod reported MIG304. Oracle
test: one TF1 program calls pandas_input_fn on a frame of float, int and string columns with a
non-default index, with labels as a Series, as a DataFrame (one of its columns named like a
feature), or none, and reads every batch: on TF 1.15 with pandas 1.1.5 (the oracle's pins; its
queue run to OutOfRange), under the compat runner and after estimator-migrate on TF 2.21 with the
current pandas (its string columns are pandas 3's `str` dtype). All three give the same batches:
values, dtypes, structure, static shapes, epochs spanning batches, the smaller last batch, and
num_epochs=None's endless full batches.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python

# A TF1 program (Python 3.7 and 3.11): argv[1] says how its input_fns' results are read, from TF 1.15's
# queue in a Session or as the dataset the bridge returns.
PROBE = r'''
import json, sys
import numpy as np
import pandas as pd
import tensorflow as tf

READ = sys.argv[1]
INDEX = np.arange(100, 110)
FRAME = pd.DataFrame({"price": np.linspace(0.5, 9.5, 10), "count": np.arange(10, dtype=np.int64) * 7,
                      "word": np.array(["w%d" % i for i in range(10)], dtype=object)}, index=INDEX)
SERIES = pd.Series(np.arange(10, dtype=np.int64) % 3, index=INDEX)
LABEL_FRAME = pd.DataFrame({"a": np.arange(10, dtype=np.float32), "b": np.arange(10, dtype=np.int32)}, index=INDEX)
SHARED_NAME = pd.DataFrame({"price": np.arange(10, dtype=np.int64) * -1, "z": np.linspace(0, 1, 10)}, index=INDEX)
LIMIT = 7  # batches read at most (num_epochs=None never ends)


def keywords(labels, batch_size, num_epochs):
    return tf.estimator.inputs.pandas_input_fn(FRAME, labels, batch_size=batch_size, num_epochs=num_epochs,
                                               shuffle=False)


CASES = {
    "labels Series, two epochs span batches": lambda: keywords(SERIES, 4, 2),
    "no labels, endless": lambda: keywords(None, 3, None),
    "labels DataFrame, one epoch": lambda: keywords(LABEL_FRAME, 4, 1),
    "labels DataFrame naming a feature column": lambda: keywords(SHARED_NAME, 6, 1),
    "batch larger than the data, target_column": lambda: tf.estimator.inputs.pandas_input_fn(
        FRAME, SERIES, batch_size=16, num_epochs=1, shuffle=False, target_column="label"),
    "positional shuffle": lambda: tf.estimator.inputs.pandas_input_fn(FRAME, SERIES, 3, 1, False),
}


def describe(value):
    if isinstance(value, dict):
        return {str(key): describe(value[key]) for key in sorted(value)}
    if isinstance(value, tuple):
        return [describe(v) for v in value]
    value = np.asarray(value)
    if value.dtype.kind in "OSU":
        return {"dtype": "string", "value": [v.decode() if isinstance(v, bytes) else v for v in value.tolist()]}
    return {"dtype": value.dtype.name, "value": value.tolist()}


def shapes(structure):
    if isinstance(structure, dict):
        return {str(key): shapes(structure[key]) for key in sorted(structure)}
    if isinstance(structure, tuple):
        return [shapes(s) for s in structure]
    return [d if d is None else int(d) for d in structure.shape.as_list()]


def read_queue(make):
    with tf.Graph().as_default():
        tensors = make()()
        batches = []
        with tf.Session() as session:
            session.run(tf.local_variables_initializer())
            coordinator = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(session, coordinator)
            try:
                while len(batches) < LIMIT:
                    batches.append(describe(session.run(tensors)))
            except tf.errors.OutOfRangeError:
                pass
            coordinator.request_stop()
            coordinator.join(threads)
        return batches, shapes(tensors)


def read_dataset(make):
    dataset = make()()
    return [describe(batch) for batch in dataset.take(LIMIT)], shapes(dataset.element_spec)


out = {"pandas": pd.__version__}
for name, make in CASES.items():
    batches, static = (read_queue if READ == "queue" else read_dataset)(make)
    out[name] = {"batches": batches, "static shapes": static}
print(json.dumps(out, sort_keys=True))
'''


def _run(argv, env, cwd):
    completed = subprocess.run([str(a) for a in argv], capture_output=True, text=True, env=env, cwd=cwd,
                               timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def tf115():
    """The probe on TF 1.15 (one oracle subprocess for every case)."""
    return _run([oracle_python("tf115"), "-c", PROBE, "queue"], oracle_env(), REPO_ROOT)


@pytest.mark.oracle
def test_the_compat_runner_and_the_migrated_program_give_tf115s_batches(tf115, tmp_path):
    env = {**oracle_env(), "PYTHONPATH": str(REPO_ROOT)}
    program = tmp_path / "probe.py"
    program.write_text(PROBE)
    migrated_text, findings = migrate_text(PROBE, "probe.py")
    assert "tf.estimator.inputs.pandas_input_fn" not in migrated_text
    assert migrated_text.count("estimator_bridge.inputs.pandas_input_fn(") == 3
    assert not [finding for finding in findings if "pandas_input_fn" in finding.message]
    migrated = tmp_path / "migrated.py"
    migrated.write_text(migrated_text)
    sides = {"runner": _run([sys.executable, "-m", "estimator_bridge.run", program, "dataset"], env, tmp_path),
             "migrated": _run([sys.executable, migrated, "dataset"], env, tmp_path)}
    assert tf115.pop("pandas") == "1.1.5"
    for side, ours in sides.items():
        ours.pop("pandas")
        assert list(ours) == list(tf115), side
        for case in tf115:
            assert ours[case] == tf115[case], (side, case)
    assert len(tf115["labels Series, two epochs span batches"]["batches"]) == 5   # 20 rows: 4 + 4 + 4 + 4 + 4
    assert len(tf115["no labels, endless"]["batches"]) == 7                       # never ends: read up to LIMIT
    assert tf115["no labels, endless"]["static shapes"]["count"] == [3]
    assert sorted(tf115["labels DataFrame naming a feature column"]["batches"][0][1]) == ["price", "z"]


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(shuffle=True), ValueError, "shuffle=False and num_threads=1"),
    (dict(shuffle=False, num_threads=2), ValueError, "shuffle=False and num_threads=1"),
    (dict(), ValueError, "shuffle must be provided"),
    (dict(shuffle=False, y="mismatched index"), ValueError, "Index for x and y are mismatched"),
    (dict(shuffle=False, y="series", target_column="a"), ValueError, "Cannot use name a for target column"),
    (dict(shuffle=False, target_column=3), TypeError, "target_column must be a string type"),
])
def test_what_tf115_refused_and_orders_tf_data_cannot_repeat_are_refused(kwargs, error, match):
    import pandas as pd

    from estimator_bridge.inputs import pandas_input_fn

    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0]}, index=[5, 6, 7])
    labels = {"series": pd.Series([0, 1, 0], index=[5, 6, 7]), "mismatched index": pd.Series([0, 1, 0])}
    if "y" in kwargs:
        kwargs = dict(kwargs, y=labels[kwargs["y"]])
    with pytest.raises(error, match=match):
        pandas_input_fn(frame, **kwargs)
