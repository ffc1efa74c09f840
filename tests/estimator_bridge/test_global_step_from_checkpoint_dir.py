"""`estimator._load_global_step_from_checkpoint_dir` (TF 1.15, private; TPU scripts call it to resume
their train/eval loops) and the bridge's `load_global_step_from_checkpoint_dir` that the codemod
writes instead: same value for the same checkpoint directories, read by TF 1.15 itself.

The directories are made here with TF 2.21 name-based checkpoints (the format TF 1.15 and the bridge
share): one with global_step 7 (two checkpoints, the latest wins), one with no checkpoint, one
whose checkpoint has no global_step, and a path that does not exist.
"""

from __future__ import annotations

import json
import textwrap

import pytest
import tensorflow as tf

from estimator_bridge.compat.contrib_helpers import load_global_step_from_checkpoint_dir
from tests.support.oracles import oracle_python, run_json

tf1 = tf.compat.v1

ORACLE_READER = textwrap.dedent("""
    import json, sys
    from tensorflow.python.estimator import estimator
    print(json.dumps({d: int(estimator._load_global_step_from_checkpoint_dir(d)) for d in sys.argv[1:]}))
""")


def _save(directory, variables, step):
    graph = tf.Graph()
    with graph.as_default():
        made = [tf1.get_variable(name, initializer=tf.constant(value, dtype))
                for name, value, dtype in variables]
        saver = tf1.train.Saver(made)
        with tf1.Session(graph=graph) as session:
            session.run(tf1.global_variables_initializer())
            saver.save(session, str(directory / "model.ckpt"), global_step=step)


@pytest.fixture(scope="module")
def directories(tmp_path_factory):
    root = tmp_path_factory.mktemp("steps")
    (root / "resumed").mkdir()
    _save(root / "resumed", [("global_step", 3, tf.int64), ("w", 1.0, tf.float32)], 3)
    _save(root / "resumed", [("global_step", 7, tf.int64), ("w", 2.0, tf.float32)], 7)
    (root / "empty").mkdir()
    (root / "no_step").mkdir()
    _save(root / "no_step", [("w", 1.0, tf.float32)], 5)
    return {name: str(root / name) for name in ("resumed", "empty", "no_step", "missing")}


def test_the_bridge_reads_the_latest_global_step_and_zero_otherwise(directories):
    values = {name: int(load_global_step_from_checkpoint_dir(path)) for name, path in directories.items()}
    assert values == {"resumed": 7, "empty": 0, "no_step": 0, "missing": 0}


@pytest.mark.oracle
def test_tf_1_15_reads_the_same_values(directories, tmp_path):
    script = tmp_path / "reader.py"
    script.write_text(ORACLE_READER)
    oracle = run_json(oracle_python("tf115"), script, *directories.values(), timeout=300)
    bridge = {path: int(load_global_step_from_checkpoint_dir(path)) for path in directories.values()}
    assert oracle == bridge, json.dumps({"tf115": oracle, "bridge": bridge})
