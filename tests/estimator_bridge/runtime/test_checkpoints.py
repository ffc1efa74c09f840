"""TF1-layout checkpoints: the files, the `checkpoint` state file, restore by name."""

from __future__ import annotations

import os

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.runtime import checkpoints, meta_graph

tf1 = tf.compat.v1

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
                     "model.ckpt-10.meta", "model.ckpt-20.data-00000-of-00001", "model.ckpt-20.index",
                     "model.ckpt-20.meta"]
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


def restored_through_meta(prefix: str) -> tuple:
    """Opens `prefix` as TF1 code did: import_meta_graph(prefix.meta), then Saver.restore."""
    with tf.Graph().as_default():
        saver = tf1.train.import_meta_graph(prefix + ".meta")
        with tf1.Session() as session:
            saver.restore(session, prefix)
            values = {v.op.name: session.run(v) for v in tf1.global_variables()}
        trainable = sorted(v.op.name for v in tf1.trainable_variables())
        step = tf1.train.get_global_step()
        return values, trainable, step.op.name if step is not None else None


def test_every_checkpoint_has_tf1_s_meta_graph_restoring_it_by_name(tmp_path):
    """TF 1.15's Saver wrote model.ckpt-N.meta beside each checkpoint; google-research/albert copies
    it to model.ckpt-best.meta (NotFoundError without it), inference code imports it."""
    variables = model_variables()
    variables["dense/kernel/Adam"] = tf.Variable(np.ones([2, 3], np.float32), trainable=False)
    variables["flag"] = tf.Variable(True, trainable=False)
    variables["global_step"].assign(7)
    prefix = checkpoints.CheckpointWriter(str(tmp_path), 5).save(variables, 7, STRATEGY)
    values, trainable, step = restored_through_meta(prefix)
    assert sorted(values) == ["dense/kernel", "dense/kernel/Adam", "flag", "global_step"]
    np.testing.assert_array_equal(values["dense/kernel"], np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(values["dense/kernel/Adam"], np.ones([2, 3], np.float32))
    assert values["global_step"] == 7 and values["flag"] is np.True_
    assert trainable == ["dense/kernel", "global_step"]  # as the variables say
    assert step == "global_step"  # tf.train.get_global_step() finds it after the import


def test_a_partitioned_variable_is_one_full_tensor_in_the_meta_graph(tmp_path):
    with tf.Graph().as_default():
        parts = tf1.get_variable("v", [4, 2], partitioner=tf1.fixed_size_partitioner(2),
                                 initializer=tf1.random_normal_initializer(seed=1))
        sliced = {f"v/part_{i}": part for i, part in enumerate(parts)}
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            expected = np.concatenate([session.run(part) for part in parts])
            prefix = os.path.join(str(tmp_path), "model.ckpt-0")
            tf1.train.Saver(list(parts)).save(session, prefix)  # TF1's sliced layout
            specs = meta_graph.variable_specs(sliced, checkpoints.stored_name, checkpoints._slice_info)
    assert specs == (("v", "float32", (4, 2), True),)
    (tmp_path / "model.ckpt-0.meta").write_bytes(meta_graph.meta_graph_bytes(specs))
    values, _, _ = restored_through_meta(prefix)
    np.testing.assert_array_equal(values["v"], expected)
