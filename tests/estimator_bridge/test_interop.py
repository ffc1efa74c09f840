"""Checkpoint interop with TF 1.15 TPUEstimator, both directions, and warm start against the oracle.

Each test runs the same model (interop_model.py) in the TF 1.15 oracle and on the bridge and
compares the per-step losses (the `loss` summaries) and every variable of the final checkpoint,
optimizer slots and global step included.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from tests.estimator_bridge import interop_model as model
from tests.support.events import read_scalars
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, oracle_python, run_json

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "interop_tf115.py"

# By the suite's one comparison (tests/support/numbers.py; no atol). Measured (TF 2.21,
# 2026-11-23, this file and test_multiworker.py): losses within 1.1e-7, every variable and slot
# within 2.1e-7 of its RMS (new/kernel/Momentum); 1e-6 stays far below what one wrong step
# changes (the kernel moves by up to 0.43 over 4 steps here).
TOLERANCE = 1e-6


def tf115(*args):
    return run_json(oracle_python("tf115"), PROGRAM, *args)


def bridge_train(model_dir, max_steps, warm_start_from=None, hidden_scope="dense"):
    config = tpu.RunConfig(model_dir=str(model_dir), save_summary_steps=1,
                           save_checkpoints_steps=4,
                           tpu_config=tpu.TPUConfig(iterations_per_loop=4))
    estimator = tpu.TPUEstimator(
        model_fn=model.make_model_fn(tpu.TPUEstimatorSpec, tpu.CrossShardOptimizer, hidden_scope),
        config=config, use_tpu=False, train_batch_size=16, warm_start_from=warm_start_from)
    estimator.train(model.input_fn, max_steps=max_steps)
    return {"losses": {str(k): v for k, v in read_scalars(model_dir, "loss").items()},
            "variables": {name: estimator.get_variable_value(name).tolist()
                          for name in estimator.get_variable_names()}}


def assert_same_run(bridge, oracle, steps):
    for step in steps:
        assert_close(bridge["losses"][str(step)], oracle["losses"][str(step)], rtol=TOLERANCE,
                     what=f"loss at step {step}")
    assert sorted(bridge["variables"]) == sorted(oracle["variables"])
    for name, value in oracle["variables"].items():
        assert_close(bridge["variables"][name], value, rtol=TOLERANCE, what=name)


def test_bridge_resumes_a_tf115_model_dir_as_tf115_does(tmp_path):
    tf115("train", str(tmp_path / "oracle"), "8")
    shutil.copytree(tmp_path / "oracle", tmp_path / "bridge")
    oracle = tf115("train", str(tmp_path / "oracle"), "16")
    bridge = bridge_train(tmp_path / "bridge", 16)
    assert_same_run(bridge, oracle, range(9, 17))
    assert bridge["variables"]["global_step"] == 16


def test_tf115_resumes_a_bridge_model_dir_as_the_bridge_does(tmp_path):
    bridge_train(tmp_path / "bridge", 8)
    shutil.copytree(tmp_path / "bridge", tmp_path / "oracle")
    bridge = bridge_train(tmp_path / "bridge", 16)
    oracle = tf115("train", str(tmp_path / "oracle"), "16")
    assert_same_run(bridge, oracle, range(9, 17))


def test_warm_start_settings_match_tf115(tmp_path):
    tf115("train", str(tmp_path / "source"), "8")
    source = str(tmp_path / "source")
    oracle = tf115("train", str(tmp_path / "oracle"), "8", source, "new/kernel", "dense")
    bridge = bridge_train(
        tmp_path / "bridge", 8, hidden_scope="new", warm_start_from=tpu.WarmStartSettings(
            source, vars_to_warm_start="new/kernel",
            var_name_to_prev_var_name={"new/kernel": "dense/kernel"}))
    assert_same_run(bridge, oracle, range(1, 9))
    # The warm-started kernel really came from the source (the bias kept its zero init).
    start = tf.train.load_checkpoint(str(tmp_path / "bridge" / "model.ckpt-0"))
    source_kernel = tf.train.load_checkpoint(source).get_tensor("dense/kernel")
    np.testing.assert_array_equal(start.get_tensor("new/kernel"), source_kernel)
    np.testing.assert_array_equal(start.get_tensor("new/bias"), np.zeros(3, np.float32))


def bridge_fresh(model_dir, warm_from, where):
    """The bridge side of interop_tf115.py's `fresh` command."""
    config = tpu.RunConfig(model_dir=str(model_dir))
    if where == "warm_start_from":
        model_fn, warm = model.make_model_fn(tpu.TPUEstimatorSpec), warm_from
    else:
        model_fn, warm = model.make_warm_model_fn(tpu.TPUEstimatorSpec, warm_from, where), None
    estimator = tpu.TPUEstimator(
        model_fn=model_fn, config=config, use_tpu=False, train_batch_size=16,
        eval_batch_size=16, predict_batch_size=5, warm_start_from=warm)
    metrics = estimator.evaluate(model.input_fn, steps=2)
    predictions = list(estimator.predict(model.predict_input_fn))
    return {"eval": {k: float(v) for k, v in metrics.items()},
            "logits": [p["logits"].tolist() for p in predictions]}


@pytest.mark.parametrize("where", ["scaffold_fn", "model_fn", "warm_start_from"])
def test_evaluate_and_predict_without_a_checkpoint_warm_start_as_tf115(tmp_path, where):
    """TF 1.15 warm-starts in every mode when model_dir has no checkpoint (issue 17: the
    bridge applied init_from_checkpoint in train() only, so a fresh evaluate/predict silently
    used the random initial weights)."""
    tf115("train", str(tmp_path / "source"), "8")
    source = str(tmp_path / "source")
    oracle = tf115("fresh", str(tmp_path / "oracle"), source, where)
    bridge = bridge_fresh(tmp_path / "bridge", source, where)
    assert sorted(bridge["eval"]) == sorted(oracle["eval"])
    for key, value in oracle["eval"].items():
        assert_close(bridge["eval"][key], value, rtol=TOLERANCE, what=f"eval {key}")
    assert_close(bridge["logits"], oracle["logits"], rtol=TOLERANCE, what="predicted logits")
    # The logits really are the source's: a cold start (kernel KERNEL_INIT) gives others.
    kernel = tf.train.load_checkpoint(source).get_tensor("dense/kernel")
    bias = tf.train.load_checkpoint(source).get_tensor("dense/bias")
    assert_close(oracle["logits"], model.SERVING_INPUTS @ kernel + bias, rtol=TOLERANCE,
                 what="TF 1.15's logits vs the source checkpoint's")
    assert not list(tmp_path.glob("bridge/model.ckpt*"))  # evaluate/predict never save
