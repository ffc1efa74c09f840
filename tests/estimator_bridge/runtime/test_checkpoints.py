"""TF1-layout checkpoints: the files, the `checkpoint` state file, restore by name."""

from __future__ import annotations

import os

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.runtime import checkpoints

STRATEGY = tf.distribute.get_strategy()  # the default strategy: one device, no replicas


def model_variables():
    return {"global_step": tf.Variable(np.int64(0)),
            "dense/kernel": tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))}


def test_save_writes_model_ckpt_n_and_keeps_the_newest(tmp_path):
    variables = model_variables()
    writer = checkpoints.CheckpointWriter(str(tmp_path), keep_checkpoint_max=2)
    for step in (0, 10, 20):
        variables["global_step"].assign(step)
        assert writer.save(variables, step, STRATEGY) == str(tmp_path / f"model.ckpt-{step}")
    files = sorted(os.listdir(tmp_path))
    assert files == ["checkpoint", "model.ckpt-10.data-00000-of-00001", "model.ckpt-10.index",
                     "model.ckpt-20.data-00000-of-00001", "model.ckpt-20.index"]
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
        "model.ckpt-10", "model.ckpt-20"]
    latest = checkpoints.latest_checkpoint(str(tmp_path))
    assert latest == str(tmp_path / "model.ckpt-20")
    assert checkpoints.checkpoint_step(latest) == 20
    # TF1's names and values, readable by TensorFlow's own reader.
    reader = tf.train.load_checkpoint(latest)
    assert reader.get_variable_to_shape_map() == {"global_step": [], "dense/kernel": [2, 3]}
    np.testing.assert_array_equal(reader.get_tensor("dense/kernel"),
                                  np.arange(6, dtype=np.float32).reshape(2, 3))


def test_keep_checkpoint_max_none_keeps_all(tmp_path):
    writer = checkpoints.CheckpointWriter(str(tmp_path), keep_checkpoint_max=None)
    for step in range(4):
        writer.save(model_variables(), step, STRATEGY)
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert len(state.all_model_checkpoint_paths) == 4


def test_restore_assigns_by_name(tmp_path):
    saved = model_variables()
    saved["dense/kernel"].assign(np.full((2, 3), 7.0, np.float32))
    prefix = checkpoints.CheckpointWriter(str(tmp_path), 5).save(saved, 3, STRATEGY)
    fresh = model_variables()
    checkpoints.restore(fresh, prefix, STRATEGY)
    np.testing.assert_array_equal(fresh["dense/kernel"].numpy(), np.full((2, 3), 7.0))


def test_restore_names_a_missing_variable_and_a_changed_shape(tmp_path):
    prefix = checkpoints.CheckpointWriter(str(tmp_path), 5).save(model_variables(), 0, STRATEGY)
    with pytest.raises(ValueError, match=r"has no tensor for the model variable\(s\) "
                                         r"\['dense/bias'\]"):
        checkpoints.restore({**model_variables(), "dense/bias": tf.Variable([0.0])}, prefix,
                            STRATEGY)
    with pytest.raises(ValueError, match=r"stores 'dense/kernel' with shape \(2, 3\), the "
                                         r"model's variable has shape \(3, 2\)"):
        checkpoints.restore({"dense/kernel": tf.Variable(np.zeros((3, 2), np.float32))},
                            prefix, STRATEGY)


def test_no_model_dir_has_no_latest_checkpoint(tmp_path):
    assert checkpoints.latest_checkpoint(str(tmp_path / "missing")) is None
    assert checkpoints.latest_checkpoint(None) is None


def test_a_truncated_checkpoint_is_named_as_damaged(tmp_path):
    prefix = checkpoints.CheckpointWriter(str(tmp_path), 5).save(model_variables(), 0, STRATEGY)
    (tmp_path / "model.ckpt-0.index").write_bytes(b"not an index")
    with pytest.raises(ValueError, match=r"model.ckpt-0 is damaged: reading its index failed"):
        checkpoints.checkpoint_step(prefix)
