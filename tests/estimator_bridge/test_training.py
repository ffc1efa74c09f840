"""training.py and train(saving_listeners=...): the rules the oracle test does not reach.

The local run against TF 1.15 (evaluation steps, exports, listener calls, numbers) is pinned by
tests/estimator_bridge/test_real_patterns.py::test_train_and_evaluate_*; here: the specs'
checks, the TF_CONFIG roles (evaluator, ps), and listener stops and misuse.
"""

from __future__ import annotations

import json

import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge import training
from tests.estimator_bridge import tiny


def test_specs_check_their_arguments_as_tf115():
    with pytest.raises(TypeError, match="`input_fn` must be callable"):
        tpu.TrainSpec(input_fn=None)
    with pytest.raises(ValueError, match="Must specify max_steps > 0, given: 0"):
        tpu.TrainSpec(tiny.input_fn, max_steps=0)
    with pytest.raises(ValueError, match="Must specify steps > 0, given: -1"):
        tpu.EvalSpec(tiny.input_fn, steps=-1)
    with pytest.raises(ValueError, match="throttle_secs >= 0"):
        tpu.EvalSpec(tiny.input_fn, throttle_secs=-5)
    with pytest.raises(TypeError, match="`exporters` must be an Exporter"):
        tpu.EvalSpec(tiny.input_fn, exporters=["latest"])
    exporter = tpu.LatestExporter("same", lambda: None)
    with pytest.raises(ValueError, match="unique names"):
        tpu.EvalSpec(tiny.input_fn, exporters=[exporter, tpu.FinalExporter("same", lambda: None)])
    spec = tpu.EvalSpec(tiny.input_fn, exporters=exporter)
    assert spec.exporters == (exporter,) and spec.steps == 100 and spec.throttle_secs == 600
    with pytest.raises(ValueError, match="exports_to_keep"):
        tpu.LatestExporter("x", lambda: None, exports_to_keep=0)
    with pytest.raises(ValueError, match="must include current_eval_result"):
        tpu.BestExporter(compare_fn=lambda best_eval_result: True)


def test_train_and_evaluate_wants_the_bridge_s_specs(tmp_path):
    estimator = tiny.make_estimator(tmp_path)
    with pytest.raises(TypeError, match="`train_spec` must have type"):
        tpu.train_and_evaluate(estimator, {"input_fn": tiny.input_fn}, tpu.EvalSpec(tiny.input_fn))
    with pytest.raises(TypeError, match="`estimator` must be an estimator_bridge Estimator"):
        tpu.train_and_evaluate(object(), tpu.TrainSpec(tiny.input_fn), tpu.EvalSpec(tiny.input_fn))


def _with_tf_config(monkeypatch, task_type, index=0):
    cluster = {"chief": ["localhost:1"], "worker": ["localhost:2"], "ps": ["localhost:3"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": cluster, "task": {"type": task_type, "index": index}}))


def test_a_parameter_server_task_is_refused_with_the_fix(monkeypatch, tmp_path):
    _with_tf_config(monkeypatch, "ps")
    estimator = tiny.make_estimator(tmp_path)
    with pytest.raises(ValueError, match="has no parameter servers. Remove the `ps` job"):
        tpu.train_and_evaluate(estimator, tpu.TrainSpec(tiny.input_fn, max_steps=4),
                               tpu.EvalSpec(tiny.input_fn, steps=1))


def test_only_evaluator_zero_may_run(monkeypatch, tmp_path):
    _with_tf_config(monkeypatch, "evaluator", index=1)
    estimator = tiny.make_estimator(tmp_path)
    with pytest.raises(ValueError, match="only be one `evaluator` task"):
        tpu.train_and_evaluate(estimator, tpu.TrainSpec(tiny.input_fn, max_steps=4),
                               tpu.EvalSpec(tiny.input_fn, steps=1))


def test_the_evaluator_task_evaluates_new_checkpoints_until_max_steps(monkeypatch, tmp_path):
    """The cluster trained to max_steps already: the evaluator evaluates the newest
    checkpoint, runs the exporters and returns (TF 1.15's _start_continuous_evaluation)."""
    tiny.make_estimator(tmp_path, iterations_per_loop=2).train(tiny.input_fn, max_steps=8)
    _with_tf_config(monkeypatch, "evaluator")
    exporter = _RecordingExporter()
    evaluator = tiny.make_estimator(tmp_path, iterations_per_loop=2)
    assert evaluator.config.task_type == "evaluator"
    result = tpu.train_and_evaluate(
        evaluator, tpu.TrainSpec(tiny.input_fn, max_steps=8),
        tpu.EvalSpec(tiny.input_fn, steps=2, start_delay_secs=0, throttle_secs=0,
                     exporters=exporter))
    assert result is None
    assert exporter.calls == [(str(tmp_path / "export" / "recorder"), "model.ckpt-8", 8, True)]
    events = [event.step for path in (tmp_path / "eval").iterdir()
              for event in tf.compat.v1.train.summary_iterator(str(path))
              if event.HasField("summary")]
    assert events == [8]


def test_the_evaluator_waits_for_a_new_checkpoint_between_passes(tmp_path):
    """No new checkpoint: no second evaluation of the same one, a wait of throttle_secs."""
    estimator = tiny.make_estimator(tmp_path, iterations_per_loop=2)
    estimator.train(tiny.input_fn, max_steps=4)
    sleeps, steps = [], []

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) == 3:  # the trainer writes a newer checkpoint meanwhile
            estimator.train(tiny.input_fn, max_steps=8)

    original = estimator.evaluate

    def evaluate(**kwargs):
        result = original(**kwargs)
        steps.append(int(result["global_step"]))
        return result

    estimator.evaluate = evaluate
    training._run_evaluator(estimator, tpu.TrainSpec(tiny.input_fn, max_steps=8),
                            tpu.EvalSpec(tiny.input_fn, steps=1, start_delay_secs=3,
                                         throttle_secs=30), sleep=sleep)
    assert steps == [4, 8]
    assert sleeps[0] == 3 and len(sleeps) == 3 and all(0 < s <= 30 for s in sleeps[1:])


class _RecordingExporter(tpu.Exporter):
    name = "recorder"

    def __init__(self):
        self.calls = []

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        self.calls.append((export_path, checkpoint_path.rsplit("/", 1)[-1],
                           int(eval_result["global_step"]), is_the_final_export))


class _StopAt(tpu.CheckpointSaverListener):
    def __init__(self, step):
        self.step, self.saved = step, []

    def after_save(self, session, global_step_value):
        self.saved.append(global_step_value)
        return global_step_value >= self.step


def test_a_listener_returning_true_after_save_stops_training(tmp_path):
    """TF1's CheckpointSaverHook requested the stop after that run; the starting step's save
    cannot stop (TF 1.15 ignored the return value there)."""
    listener = _StopAt(0)
    estimator = tiny.make_estimator(tmp_path, iterations_per_loop=2, save_checkpoints_steps=2)
    estimator.train(tiny.input_fn, max_steps=10, saving_listeners=[listener])
    assert listener.saved == [0, 2]
    assert estimator.latest_checkpoint().endswith("model.ckpt-2")


def test_saving_listeners_need_checkpoints_and_listener_types(tmp_path):
    estimator = tiny.make_estimator(tmp_path, save_checkpoints_steps=None,
                                    save_checkpoints_secs=None)
    with pytest.raises(ValueError, match="There should be a CheckpointSaverHook to use "
                                         "saving_listeners"):
        estimator.train(tiny.input_fn, max_steps=4, saving_listeners=[_StopAt(4)])
    with pytest.raises(TypeError, match="Subclass tf.compat.v1.train.CheckpointSaverListener"):
        tiny.make_estimator(tmp_path / "b").train(tiny.input_fn, max_steps=4,
                                                  saving_listeners=[object()])
