"""How the oracle's spread runs vary (threads, oneDNN), and the global-step race ordered in its graph."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

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
    runs = [spread_run(i, alternate_onednn=False, cpus=2, recorded_start=True) for i in (2, 3)]
    assert [run.nudge_seed for run in runs] == [2, 3]  # a different nudge per run
    assert runs[0].describe() == "1 intra-op thread, start weights moved 1 ulp"
    assert spread_run(2, alternate_onednn=False, cpus=2).nudge_seed is None  # started from scratch: nothing to move


def test_spread_runs_of_a_keras_program_start_from_its_recorded_weights_moved_one_ulp(tmp_path, monkeypatch):
    """tda_mnist_keras_to_tpu_2018 (a Keras program: keras_start.npz, no checkpoint) had spread
    runs that varied only the thread count: they moved TF 1.15 at most 1.0e-5 where 1-ulp starts
    moved it 1.0e-4..1.2e-4, and all three sides failed at 1.3e-4 on that number."""
    from verify import pipeline
    from verify.oracle_plan import OracleRun
    from verify.sides import seed_model_dir

    work = tmp_path / "work"
    recorded = work / "oracle" / "run1" / pipeline.RECORD_FOLDER / pipeline.START
    started: list[tuple[str, Path | None]] = []

    def run(self, label, command, python, model_dir, args, *, keras_start=None, **_):
        if model_dir.name == "run1":  # oracle run 1 records the start weights
            recorded.parent.mkdir(parents=True)
            np.savez(recorded, **{"keras/model0/layer0/kernel": np.array([1.0, 0.0], np.float32)})
        started.append((model_dir.name, keras_start))
        return {"tensorflow": "1.15.5", "scalars": {"loss": [[1, float(len(started))]]}}

    monkeypatch.setattr(pipeline.Runner, "run", run)
    monkeypatch.setattr(pipeline.Runner, "_oracle_command", lambda self, python: [python])
    monkeypatch.setattr(pipeline.Runner, "oracle_path", [], raising=False)
    monkeypatch.setattr(pipeline.global_step_race, "racy_reads_in", lambda folder: [])
    monkeypatch.setattr(pipeline, "ordered_races", lambda folders: [])
    runner = pipeline.Runner(pipeline.Program(tmp_path / "p.py", ()), pipeline.Options(work_dir=work, exact=False),
                             pipeline.Silent())
    work.mkdir()
    result = pipeline.VerifyResult(program=runner.program, oracle="tf115", oracle_reason="")
    runner._oracle_runs("tf115", "python", result)
    assert [name for name, _ in started] == ["run1", "run2", "run3"]
    assert started[0][1] is None and runner.keras_start == work / "start_state" / pipeline.START
    for (name, nudged), seed in zip(started[1:], (2, 3)):
        assert nudged == work / "oracle" / f"start{seed}" / pipeline.START
        with np.load(nudged) as moved:
            kernel = moved["keras/model0/layer0/kernel"]
        assert kernel[0] != 1.0 and kernel[1] == 0.0
    assert [run.get("nudge_seed") for run in result.oracle_runs] == [None, 2, 3]


def test_a_nudged_keras_start_moves_every_nonzero_float_by_one_ulp_and_nothing_else(tmp_path):
    from verify.nudge import nudge_npz

    values = {"keras/model0/layer0/kernel": np.array([[1.0, -2.5], [0.0, 3e-8]], np.float32),
              "keras/model0/layer1/moving_mean": np.array([0.5, 0.0, -7.0], np.float64),
              "keras/model0/layer1/count": np.array([3, 0], np.int64),
              "__structure__": np.array(json.dumps([["keras/model0/layer0/kernel", [2, 2]]]))}
    np.savez(tmp_path / "keras_start.npz", **values)
    nudge_npz(tmp_path / "keras_start.npz", tmp_path / "a" / "keras_start.npz", seed=2)
    nudge_npz(tmp_path / "keras_start.npz", tmp_path / "b" / "keras_start.npz", seed=2)
    nudge_npz(tmp_path / "keras_start.npz", tmp_path / "c" / "keras_start.npz", seed=3)
    with np.load(tmp_path / "a" / "keras_start.npz") as a, np.load(tmp_path / "b" / "keras_start.npz") as b, \
            np.load(tmp_path / "c" / "keras_start.npz") as c:
        assert sorted(a.files) == sorted(values)
        for key, value in values.items():
            assert a[key].dtype == value.dtype and a[key].shape == value.shape
            assert np.array_equal(a[key], b[key])  # seeded: the same seed moves the same way
        kernel, mean = a["keras/model0/layer0/kernel"], a["keras/model0/layer1/moving_mean"]
        assert ulps(kernel, values["keras/model0/layer0/kernel"], np.int32).tolist() == [[1, 1], [0, 1]]
        assert ulps(mean, values["keras/model0/layer1/moving_mean"], np.int64).tolist() == [1, 0, 1]
        assert a["keras/model0/layer1/count"].tolist() == [3, 0]
        assert str(a["__structure__"]) == str(values["__structure__"])
        seeds_differ = [not np.array_equal(a[key], c[key]) for key in ("keras/model0/layer0/kernel",
                                                                        "keras/model0/layer1/moving_mean")]
        assert any(seeds_differ)  # another seed, other directions


def ulps(moved, original, integer):
    return np.abs(moved.view(integer).astype(np.int64) - original.view(integer).astype(np.int64))


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
