"""estimator_bridge.inputs.numpy_input_fn gives TF 1.15's numpy_input_fn batches for `shuffle=False`.

Meteorix/bert's run_squad.py (a held-out draw) and the 2017 contrib.learn MNIST tutorial fed their
Estimators with `tf.estimator.inputs.numpy_input_fn(..., shuffle=False)`, which TF 2.16 removed
with tf.estimator; the codemod reported it (MIG304). Oracle test: the same calls on TF 1.15 (its
queue, run to OutOfRange) and on the bridge (the dataset, iterated to its end) give the same
batches: values, dtypes, structure (array or dict features, labels or none), static shapes, epochs
spanning batches, the smaller last batch, and num_epochs=None's endless full batches.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python

# Python 3.7 and 3.11; SIDE picks TF 1.15's function or the bridge's.
PROBE = r'''
import json, sys
import numpy as np
SIDE = sys.argv[1]
xs = np.arange(20, dtype=np.float32).reshape(10, 2)
ys = np.arange(10, dtype=np.int64) * 3
CASES = {
    "array, labels, one epoch": dict(x=xs, y=ys, batch_size=4, num_epochs=1),
    "two epochs span batches": dict(x=xs, y=ys, batch_size=4, num_epochs=2),
    "dict features, no labels": dict(x={"b": np.linspace(0, 1, 7), "a": np.arange(21, dtype=np.int32).reshape(7, 3)},
                                     batch_size=3, num_epochs=1),
    "dict labels, endless": dict(x=xs, y={"l2": ys + 1, "l1": ys.astype(np.float32)}, batch_size=4, num_epochs=None),
    "batch larger than the data": dict(x=xs, y=ys, batch_size=16, num_epochs=1),
    "positional shuffle": ((xs, ys, 3, 1, False), {}),
}
LIMIT = 6  # batches read at most (num_epochs=None never ends)

def describe(value):
    if isinstance(value, dict):
        return {key: describe(value[key]) for key in sorted(value)}
    if isinstance(value, tuple):
        return [describe(v) for v in value]
    value = np.asarray(value)
    return {"dtype": value.dtype.name, "value": value.tolist()}

def shapes(structure):
    if isinstance(structure, dict):
        return {key: shapes(structure[key]) for key in sorted(structure)}
    if isinstance(structure, tuple):
        return [shapes(s) for s in structure]
    return [d if d is None else int(d) for d in structure.shape.as_list()]

out = {}
for name, case in CASES.items():
    args, kwargs = case if isinstance(case, tuple) else ((), dict(case, shuffle=False))
    if SIDE == "tf115":
        import tensorflow as tf
        with tf.Graph().as_default():
            tensors = tf.estimator.inputs.numpy_input_fn(*args, **kwargs)()
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
            static = shapes(tensors)
    else:
        import tensorflow as tf
        import estimator_bridge
        dataset = estimator_bridge.inputs.numpy_input_fn(*args, **kwargs)()
        batches = [describe(batch) for batch in dataset.take(LIMIT)]
        static = shapes(tf.nest.map_structure(lambda spec: spec, dataset.element_spec))
    out[name] = {"batches": batches, "static shapes": static}
print(json.dumps(out))
'''


def _run(python, side, env, program=PROBE, timeout=300):
    """The probe `program` run by `python` for `side`; its last printed line, as JSON."""
    completed = subprocess.run([str(python), "-c", program, side], capture_output=True, text=True, env=env,
                               timeout=timeout)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


@pytest.mark.oracle
def test_the_bridges_numpy_input_fn_gives_tf115s_batches():
    expected = _run(oracle_python("tf115"), "tf115", oracle_env())
    ours = _run(sys.executable, "bridge", {**oracle_env(), "PYTHONPATH": str(REPO_ROOT)})
    assert list(ours) == list(expected)
    for case in expected:
        assert ours[case] == expected[case], case
    assert len(expected["two epochs span batches"]["batches"]) == 5     # 20 rows: 4 + 4 + 4 + 4 + 4
    assert len(expected["dict labels, endless"]["batches"]) == 6        # never ends: read up to the limit


# shuffle=True: no two runs of TF 1.15 give the same order (its feeder starts at a row drawn from the OS's
# entropy), so each side reads the same input REPS times and the orders' statistics are compared.
SHUFFLED = r'''
import json, sys
import numpy as np
SIDE, REPS = sys.argv[1], 40
CASES = {"fits the queue": dict(n=8, batch_size=2, num_epochs=3), "endless": dict(n=30, batch_size=4, num_epochs=None)}
LIMIT = 12

def read(case):
    x = np.arange(case["n"], dtype=np.int64)
    kwargs = dict(x={"i": x}, y=x * 10, batch_size=case["batch_size"], num_epochs=case["num_epochs"], shuffle=True)
    batches = []
    if SIDE == "tf115":
        import tensorflow as tf
        with tf.Graph().as_default():
            features, labels = tf.estimator.inputs.numpy_input_fn(**kwargs)()
            with tf.Session() as session:
                session.run(tf.local_variables_initializer())
                coordinator = tf.train.Coordinator()
                threads = tf.train.start_queue_runners(session, coordinator)
                try:
                    while len(batches) < LIMIT:
                        batches.append(session.run((features["i"], labels)))
                except tf.errors.OutOfRangeError:
                    pass
                coordinator.request_stop()
                coordinator.join(threads)
    else:
        import estimator_bridge
        for features, labels in estimator_bridge.inputs.numpy_input_fn(**kwargs)().take(LIMIT):
            batches.append((features["i"].numpy(), labels.numpy()))
    assert all((rows * 10 == targets).all() for rows, targets in batches)
    return [[int(v) for v in rows] for rows, _ in batches]

out = {}
for name, case in CASES.items():
    runs = [read(case) for _ in range(REPS)]
    streams = [[v for batch in run for v in batch] for run in runs]
    out[name] = {"batch sizes": sorted({tuple(len(batch) for batch in run) for run in runs}),
                 "rows read": sorted({tuple(sorted(stream)) for stream in streams}) if case["num_epochs"] else None,
                 "distinct in the first 8": float(np.mean([len(set(stream[:8])) for stream in streams])),
                 "distinct first batches": len({tuple(run[0]) for run in runs})}
print(json.dumps(out))
'''


def _run_shuffled(python, side, env):
    return _run(python, side, env, program=SHUFFLED, timeout=600)


@pytest.mark.oracle
def test_shuffled_batches_mix_the_epochs_as_tf115s_queue_did():
    """TF 1.15 fed every epoch's rows into one RandomShuffleQueue: 8 rows x 3 epochs (24, all in the queue
    before the first read) came out as one uniform permutation of the 24, so the first 8 rows hold
    8 * (1 - C(21,8)/C(24,8)) = 5.8 distinct rows on average; a per-epoch shuffle (`shuffle(len(x))
    .repeat(3)`) holds 8. Measured at 40 reads per side (standard error about 0.15 each): the bridge's
    mean must be within 0.8 of TF 1.15's. Endless input: full batches, and the first batches differ."""
    expected = _run_shuffled(oracle_python("tf115"), "tf115", oracle_env())
    ours = _run_shuffled(sys.executable, "bridge", {**oracle_env(), "PYTHONPATH": str(REPO_ROOT)})
    for case in expected:
        assert ours[case]["batch sizes"] == expected[case]["batch sizes"], case
        assert ours[case]["rows read"] == expected[case]["rows read"], case
        assert ours[case]["distinct first batches"] > 1 and expected[case]["distinct first batches"] > 1, case
    mixed = "fits the queue"
    assert expected[mixed]["distinct in the first 8"] < 7.0
    assert abs(ours[mixed]["distinct in the first 8"] - expected[mixed]["distinct in the first 8"]) < 0.8


@pytest.mark.parametrize("kwargs", [dict(shuffle=False, num_threads=2), dict(shuffle=True, num_threads=2), dict()])
def test_orders_tf_data_cannot_repeat_are_refused(kwargs):
    import numpy as np

    from estimator_bridge.inputs import numpy_input_fn

    with pytest.raises(ValueError, match="shuffle"):
        numpy_input_fn(np.zeros((4, 2)), **kwargs)
