"""How the oracle's spread runs vary (threads, oneDNN), and the global-step race ordered in its graph."""

from __future__ import annotations

from verify.environments import program_env
from verify.oracle_plan import spread_run
from verify.pipeline import race_note


def test_spread_runs_alternate_one_thread_and_twice_the_cpus():
    assert [spread_run(i, alternate_onednn=False, cpus=2).intra_op_threads for i in (2, 3, 4, 5)] == [1, 4, 1, 4]
    assert all(spread_run(i, alternate_onednn=False, cpus=2).onednn for i in (2, 3))


def test_a_tf2_oracle_also_alternates_onednn():
    assert [spread_run(i, alternate_onednn=True, cpus=8).onednn for i in (2, 3)] == [False, True]
    assert spread_run(2, alternate_onednn=True, cpus=8).describe() == "oneDNN off, 1 intra-op thread"


def test_the_thread_count_reaches_the_program_and_never_leaks_in(monkeypatch):
    monkeypatch.setenv("TF_NUM_INTRAOP_THREADS", "7")
    assert "TF_NUM_INTRAOP_THREADS" not in program_env()
    assert program_env(intra_op_threads=1)["TF_NUM_INTRAOP_THREADS"] == "1"


def test_bert_s_racy_schedule_gets_a_control_edge_from_the_read_to_the_increment():
    import tensorflow as tf

    from verify.race_order import order_races

    graph = tf.Graph()
    with graph.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        weight = tf.compat.v1.get_variable("w", initializer=1.0)
        rate = tf.cast(step, tf.float32) * 0.1  # google-research/bert: the schedule reads the step
        update = weight.assign_sub(rate)
        increment = step.assign(step + 1)  # ... and increments it by hand, ordered with nothing
        tf.group(update, increment)
    pairs = order_races(graph)
    assert len(pairs) == 1
    read, write = pairs[0]
    assert graph.get_operation_by_name(read) in graph.get_operation_by_name(write).control_inputs
    assert order_races(graph) == []  # ordered now: nothing left to order


def test_an_ordered_race_is_named_in_the_notes():
    note = race_note(["Cast/ReadVariableOp -> AssignVariableOp"])
    assert "Cast/ReadVariableOp" in note and "before the increment" in note
    assert "could not be ordered" in race_note(["not ordered: ValueError: x"])


def test_spread_runs_of_a_checkpoint_started_program_move_its_start_weights_one_ulp():
    runs = [spread_run(i, alternate_onednn=False, cpus=2, from_checkpoint=True) for i in (2, 3)]
    assert [run.nudge_seed for run in runs] == [2, 3]  # a different nudge per run
    assert runs[0].describe() == "1 intra-op thread, start weights moved 1 ulp"
    assert spread_run(2, alternate_onednn=False, cpus=2).nudge_seed is None  # Keras: no checkpoint


def test_a_nudged_checkpoint_moves_every_nonzero_float_by_one_ulp_and_nothing_else(tmp_path):
    import numpy as np
    import tensorflow as tf

    from verify.nudge import nudge_checkpoint

    values = {"w": np.array([1.0, -2.5, 0.0, 3e-8], np.float32), "step": np.array(7, np.int64)}
    graph = tf.Graph()
    with graph.as_default():
        variables = [tf.compat.v1.Variable(value, name=name) for name, value in values.items()]
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            tf.compat.v1.train.Saver(variables).save(session, str(tmp_path / "a" / "model.ckpt-0"))
    nudge_checkpoint(tmp_path / "a" / "model.ckpt-0", tmp_path / "b" / "model.ckpt-0", seed=2)
    moved = tf.train.load_checkpoint(str(tmp_path / "b" / "model.ckpt-0"))
    w = moved.get_tensor("w")
    ulps = np.abs(w.view(np.int32).astype(np.int64) - values["w"].view(np.int32).astype(np.int64))
    assert ulps.tolist() == [1, 1, 0, 1]
    assert moved.get_tensor("step") == 7


def test_a_nudge_that_outlives_its_time_box_is_the_runtime_error_the_pipeline_handles(tmp_path):
    """A nudge subprocess killed by its timeout crashed a whole verify on a loaded machine: the
    pipeline catches RuntimeError (an un-nudged start, noted) but TimeoutExpired passed through."""
    import pytest

    from verify.nudge import nudge_checkpoint

    with pytest.raises(RuntimeError, match="no answer within 0.01 s"):
        nudge_checkpoint(tmp_path / "a" / "model.ckpt-0", tmp_path / "b" / "model.ckpt-0", timeout_s=0.01)
