"""Step fusion changes nothing observable: one hook kind per test, fusion on against off.

Every test trains the same program twice from the same initial values, once with
ESTIMATOR_BRIDGE_STEP_FUSION=0 (one step per loop) and once with fusion on, and compares every
step's loss (save_summary_steps=1), every checkpoint (steps and values), the rate summaries'
steps and what the hooks saw. It also counts the loops, so that it fails if fusion did not run
(or ran where it must not).
"""

from __future__ import annotations

import logging
import os

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.runtime import step_fusion
from tests.estimator_bridge import tiny
from tests.support.events import read_scalars

tf1 = tf.compat.v1


def _checkpoints(model_dir):
    """{step: {variable: value}} of every model.ckpt-N left in model_dir."""
    state = tf.train.get_checkpoint_state(model_dir)
    if state is None:
        return {}
    result = {}
    for path in state.all_model_checkpoint_paths:
        reader = tf.train.load_checkpoint(path)
        result[int(path.rsplit("-", 1)[1])] = {
            name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}
    return result


class _LoopLines(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.steps = []

    def emit(self, record):
        if str(record.msg).startswith("train | step:"):
            self.steps.append(int(record.args[0]))


def _train(model_dir, monkeypatch, fusion, *, make_estimator, hooks=(), steps=30,
           expect_error=None):
    monkeypatch.setenv(step_fusion.ENVIRONMENT_VARIABLE, "1" if fusion else "0")
    lines = _LoopLines()
    logger = logging.getLogger("estimator_bridge")
    old_level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(lines)
    try:
        estimator, input_fn = make_estimator(model_dir)
        if expect_error is None:
            estimator.train(input_fn, max_steps=steps, hooks=list(hooks))
        else:
            with pytest.raises(expect_error):
                estimator.train(input_fn, max_steps=steps, hooks=list(hooks))
    finally:
        logger.removeHandler(lines)
        logger.setLevel(old_level)
    return {"losses": read_scalars(model_dir, "loss"),
            "rates": sorted(read_scalars(model_dir, "global_step/sec")),  # steps
            "checkpoints": _checkpoints(model_dir),
            "loops": lines.steps,
            "global_step": int(estimator._cache["global_step"].numpy())}


def _assert_same(fused, unfused):
    assert fused["losses"] == unfused["losses"]  # every step's loss, bit for bit
    assert fused["rates"] == unfused["rates"]  # the steps (the rates are wall-clock)
    assert sorted(fused["checkpoints"]) == sorted(unfused["checkpoints"])
    for step, variables in unfused["checkpoints"].items():
        assert sorted(fused["checkpoints"][step]) == sorted(variables)
        for name, value in variables.items():
            np.testing.assert_array_equal(fused["checkpoints"][step][name], value, err_msg=name)
    assert fused["global_step"] == unfused["global_step"]


def _assert_fused(fused, unfused, boundaries):
    """Fused loops end at least at `boundaries` (each an observer's step), and are fewer."""
    assert set(boundaries) <= set(fused["loops"]), fused["loops"]
    assert fused["loops"][-1] == unfused["loops"][-1]
    assert len(fused["loops"]) < len(unfused["loops"]) / 2, fused["loops"]


def _tpu_estimator(model_fn=None, **run_config):
    settings = dict(save_checkpoints_steps=7, save_summary_steps=1, log_step_count_steps=5)
    settings.update(run_config)

    def make(model_dir):
        return (tiny.make_estimator(model_dir, model_fn=model_fn, iterations_per_loop=1,
                                    **settings), tiny.input_fn)
    return make


def _both(tmp_path, monkeypatch, make_hooks=lambda: (), **kwargs):
    hooks_off, hooks_on = make_hooks(), make_hooks()
    unfused = _train(tmp_path / "off", monkeypatch, False, hooks=hooks_off, **kwargs)
    fused = _train(tmp_path / "on", monkeypatch, True, hooks=hooks_on, **kwargs)
    return fused, unfused, hooks_on, hooks_off


def test_the_estimator_own_observers_see_the_same_steps(tmp_path, monkeypatch):
    """Checkpoints every 7 steps, loss every step, global_step/sec every 5, max_steps=30."""
    fused, unfused, _, _ = _both(tmp_path, monkeypatch, make_estimator=_tpu_estimator())
    _assert_same(fused, unfused)
    assert sorted(unfused["checkpoints"]) == [7, 14, 21, 28, 30]  # keep_checkpoint_max=5
    assert unfused["loops"] == list(range(1, 31))
    # Loops end where an observer needs control: the first step (rate clock), then every
    # rate report (1 + 5k) and checkpoint (7k), and max_steps (and, while the step time is
    # being measured, where the time budget of a loop ends).
    _assert_fused(fused, unfused, [1, 6, 7, 11, 14, 16, 21, 26, 28, 30])


def test_a_plain_estimator_is_fused_too(tmp_path, monkeypatch):
    def make(model_dir):
        def model_fn(features, labels, mode):
            loss = tf1.losses.sparse_softmax_cross_entropy(labels, tiny.logits_of(features))
            train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
                loss, tf1.train.get_global_step())
            return tpu.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)
        config = tpu.RunConfig(model_dir=str(model_dir), save_checkpoints_steps=10,
                               save_summary_steps=1, log_step_count_steps=None)
        dataset = lambda: tf.data.Dataset.from_tensor_slices(  # noqa: E731
            (tiny.FEATURES, tiny.LABELS)).repeat().batch(16, drop_remainder=True)
        return tpu.Estimator(model_fn=model_fn, config=config), dataset

    fused, unfused, _, _ = _both(tmp_path, monkeypatch, make_estimator=make)
    _assert_same(fused, unfused)
    assert unfused["loops"] == list(range(1, 31))  # TF1's Estimator: hooks every step
    _assert_fused(fused, unfused, [1, 10, 20, 30])


def test_logging_tensor_hook_logs_the_same_values_at_the_same_steps(tmp_path, monkeypatch):
    def model_fn_logging(seen):
        def spec_kwargs(features, labels, logits, loss):
            return {"training_hooks": [tf1.train.LoggingTensorHook(
                {"loss": loss, "step": tf1.train.get_global_step()}, every_n_iter=4,
                formatter=lambda values: seen.append(
                    (int(values["step"]), float(values["loss"]))) or "")]}
        return tiny.make_model_fn(spec_kwargs=spec_kwargs)

    seen_off, seen_on = [], []
    unfused = _train(tmp_path / "off", monkeypatch, False,
                     make_estimator=_tpu_estimator(model_fn_logging(seen_off)))
    fused = _train(tmp_path / "on", monkeypatch, True,
                   make_estimator=_tpu_estimator(model_fn_logging(seen_on)))
    _assert_same(fused, unfused)
    assert seen_on == seen_off
    assert [step for step, _ in seen_off] == [1, 5, 9, 13, 17, 21, 25, 29]
    assert len(fused["loops"]) < len(unfused["loops"])
    assert set(step for step, _ in seen_on) <= set(fused["loops"])


def _unknown_length_input_fn(params):
    """30 batches behind a `filter`: the loop must find the data's end by itself."""
    dataset = tf.data.Dataset.from_tensor_slices((tiny.FEATURES, tiny.LABELS)).repeat(8)
    return dataset.filter(lambda features, label: True).batch(
        params["batch_size"], drop_remainder=True).take(30)


def test_training_on_data_of_unknown_length_is_fused_and_ends_with_the_data(tmp_path,
                                                                            monkeypatch):
    """A LoggingTensorHook's trigger planned at step 33 lies past the data's end (step 30): as
    with one step per loop it must not fire, though the fused loop planned up to it comes
    back short. Loss every step, checkpoints every 7 and at the end, rates every 5, and the
    hook's values are those of one step per loop."""
    def model_fn_logging(seen):
        def spec_kwargs(features, labels, logits, loss):
            return {"training_hooks": [tf1.train.LoggingTensorHook(
                {"loss": loss, "step": tf1.train.get_global_step()}, every_n_iter=4,
                formatter=lambda values: seen.append(
                    (int(values["step"]), float(values["loss"]))) or "")]}
        return tiny.make_model_fn(spec_kwargs=spec_kwargs)

    def make(seen):
        def make_estimator(model_dir):
            estimator, _ = _tpu_estimator(model_fn_logging(seen))(model_dir)
            return estimator, _unknown_length_input_fn
        return make_estimator

    seen_off, seen_on = [], []
    unfused = _train(tmp_path / "off", monkeypatch, False, make_estimator=make(seen_off),
                     steps=None)
    fused = _train(tmp_path / "on", monkeypatch, True, make_estimator=make(seen_on), steps=None)
    _assert_same(fused, unfused)
    assert unfused["global_step"] == 30 and len(unfused["losses"]) == 30
    assert unfused["loops"] == list(range(1, 31))
    assert seen_on == seen_off
    assert [step for step, _ in seen_off] == [1, 5, 9, 13, 17, 21, 25, 29]
    # Observers every 4, 5 and 7 steps, and loops that stop one step short of a hook's
    # trigger on such data: fewer loops, not many fewer.
    assert len(fused["loops"]) < len(unfused["loops"]), fused["loops"]


def test_stop_at_step_hook_stops_at_the_same_step(tmp_path, monkeypatch):
    fused, unfused, _, _ = _both(
        tmp_path, monkeypatch, lambda: [tf1.train.StopAtStepHook(last_step=23)],
        make_estimator=_tpu_estimator(save_checkpoints_steps=100, log_step_count_steps=None))
    _assert_same(fused, unfused)
    assert unfused["global_step"] == 23
    _assert_fused(fused, unfused, [1, 23])


def test_checkpoint_saver_hook_saves_the_same_checkpoints(tmp_path, monkeypatch):
    def hooks():
        return [tf1.train.CheckpointSaverHook(str(tmp_path / f"hook_{len(os.listdir(tmp_path))}"),
                                              save_steps=6)]
    fused, unfused, hooks_on, hooks_off = _both(
        tmp_path, monkeypatch, hooks,
        make_estimator=_tpu_estimator(save_checkpoints_steps=None, save_checkpoints_secs=None,
                                      log_step_count_steps=None))
    _assert_same(fused, unfused)
    hook_on, hook_off = (_checkpoints(hook._checkpoint_dir) for hook in (hooks_on[0],
                                                                          hooks_off[0]))
    assert sorted(hook_off) == [0, 6, 12, 18, 24, 30] == sorted(hook_on)
    for step in hook_off:
        for name, value in hook_off[step].items():
            np.testing.assert_array_equal(hook_on[step][name], value)
    _assert_fused(fused, unfused, [1, 6, 12, 18, 24, 30])


def test_nan_stops_at_the_same_step_without_a_final_checkpoint(tmp_path, monkeypatch):
    def nan_after_step_12(labels, logits):
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        step = tf1.train.get_global_step()
        return tf.where(step >= 12, tf.constant(np.nan, tf.float32), loss)

    def model_fn():
        return tiny.make_model_fn(
            loss_fn=nan_after_step_12,
            spec_kwargs=lambda features, labels, logits, loss: {
                "training_hooks": [tf1.train.NanTensorHook(loss, fail_on_nan_loss=False)]})

    unfused = _train(tmp_path / "off", monkeypatch, False, expect_error=tpu.NanLossDuringTrainingError,
                     make_estimator=_tpu_estimator(model_fn(), log_step_count_steps=None,
                                                   save_checkpoints_steps=20))
    fused = _train(tmp_path / "on", monkeypatch, True, expect_error=tpu.NanLossDuringTrainingError,
                   make_estimator=_tpu_estimator(model_fn(), log_step_count_steps=None,
                                                 save_checkpoints_steps=20))
    assert unfused["global_step"] == 13  # the step whose loss was NaN ran, then training stopped
    _assert_same(fused, unfused)
    assert len(fused["loops"]) < len(unfused["loops"])


class _BeginEndOnly(tf1.train.SessionRunHook):
    """Needs no step: only begin/after_create_session/end (a restore-at-start hook)."""

    def __init__(self):
        self.calls = []

    def begin(self):
        self.step = tf1.train.get_global_step()
        self.calls.append("begin")

    def after_create_session(self, session, coord):
        self.calls.append(("after_create_session", int(session.run(self.step))))

    def end(self, session):
        self.calls.append(("end", int(session.run(self.step))))


def test_a_hook_without_before_or_after_run_is_fused(tmp_path, monkeypatch):
    fused, unfused, hooks_on, hooks_off = _both(
        tmp_path, monkeypatch, lambda: [_BeginEndOnly()], make_estimator=_tpu_estimator())
    _assert_same(fused, unfused)
    assert hooks_on[0].calls == hooks_off[0].calls == [
        "begin", ("after_create_session", 0), ("end", 30)]
    assert len(fused["loops"]) < len(unfused["loops"])


class _EveryStep(tf1.train.SessionRunHook):
    def __init__(self):
        self.steps = []

    def before_run(self, run_context):
        return tf1.train.SessionRunArgs(tf1.train.get_global_step())

    def after_run(self, run_context, run_values):
        self.steps.append(int(run_values.results))


@pytest.mark.parametrize("make_hook, reason", [
    (_EveryStep, "overrides before_run/after_run"),
    (lambda: tf1.train.LoggingTensorHook({"step": "global_step"}, every_n_secs=30),
     "fires every 30 s"),
])
def test_a_hook_that_may_need_every_step_keeps_one_step_per_loop(tmp_path, monkeypatch, caplog,
                                                                 make_hook, reason):
    step_fusion._reasons_logged.clear()
    with caplog.at_level(logging.INFO, logger="estimator_bridge"):
        fused, unfused, _, _ = _both(tmp_path, monkeypatch, lambda: [make_hook()],
                                     make_estimator=_tpu_estimator())
    _assert_same(fused, unfused)
    assert fused["loops"] == unfused["loops"] == list(range(1, 31))
    said = [record.getMessage() for record in caplog.records
            if "step fusion off" in record.getMessage()]
    assert len(said) == 1 and reason in said[0]  # once, though train() ran twice


def test_the_option_turns_fusion_off(monkeypatch):
    monkeypatch.setenv(step_fusion.ENVIRONMENT_VARIABLE, "off")
    assert not step_fusion.enabled()
    monkeypatch.delenv(step_fusion.ENVIRONMENT_VARIABLE)
    assert step_fusion.enabled()


def test_a_time_based_checkpoint_shrinks_the_loops_towards_its_deadline():
    """save_checkpoints_secs: loops end before the deadline, then run one step at a time, so
    the checkpoint lands after the first step that crosses it, as with one step per loop."""
    from estimator_bridge.runtime import controller

    now = [100.0]
    fusion = step_fusion.Fusion(step_fusion.HookCadences([]), clock=lambda: now[0])
    fusion.after_loop(10, 0.01)  # 1 ms a step
    plan = controller.TrainPlan(start_step=0, last_step=None, steps_per_loop=1, data_steps=None,
                                save_checkpoints_steps=None, save_checkpoints_secs=60,
                                save_summary_steps=None, global_batch_size=None)
    size = lambda: controller._fused_size(plan, 50, fusion, None, 100.0 - 59.95)  # noqa: E731
    assert size() in (49, 50)  # 50 ms left: 50 steps of 1 ms (floating point)
    now[0] += 0.0495
    assert size() == 1
    now[0] += 1.0  # past the deadline: one step, then the controller saves
    assert size() == 1
    assert controller._fused_size(plan, 50, fusion, None, now[0]) == 1000  # LOOP_SECONDS


# ---- evaluate() on data of unknown length ------------------------------------------------------

class _CountLoops(tpu.SessionRunHook):
    def __init__(self):
        self.before_run_calls = 0

    def before_run(self, run_context):
        self.before_run_calls += 1


def _evaluate_unknown_length(model_dir, monkeypatch, fusion, steps=None):
    """A trained tiny model evaluated on 64 rows in batches of 10 (the last one 4 rows), through
    a `filter` that hides the length: the loop must find the data's end by itself."""
    monkeypatch.setenv(step_fusion.ENVIRONMENT_VARIABLE, "1" if fusion else "0")

    def metric_fn(labels, logits):
        # static_rows: a count that does not wait for the input (a v1 mean of a constant).
        return dict(tiny.metric_fn(labels, logits), static_rows=tf1.metrics.mean(tf.ones([10])))

    model_fn = tiny.make_model_fn(spec_kwargs=lambda features, labels, logits, loss: {
        "eval_metrics": (metric_fn, [labels, logits])})

    def eval_input_fn(params):
        dataset = tf.data.Dataset.from_tensor_slices((tiny.FEATURES, tiny.LABELS))
        return dataset.filter(lambda features, label: True).batch(params["batch_size"])

    estimator = tiny.make_estimator(model_dir, model_fn=model_fn, iterations_per_loop=1,
                                    eval_batch_size=10)
    estimator.train(tiny.input_fn, max_steps=3)
    counter = _CountLoops()
    results = estimator.evaluate(eval_input_fn, steps=steps, hooks=[counter])
    return results, counter.before_run_calls


@pytest.mark.parametrize("steps", [None, 4])
def test_evaluate_on_data_of_unknown_length_runs_in_one_loop_with_the_same_results(
        tmp_path, monkeypatch, steps):
    """TFRecord files and filtered datasets have no known length, so evaluation used to run
    one traced step per call until OutOfRange. Fused, one loop runs to the data's end (or
    `steps`); the metrics (accuracy, a count that does not wait for the input), the loss and
    the global step are bit for bit those of one call per step."""
    unfused, unfused_loops = _evaluate_unknown_length(tmp_path / "off", monkeypatch, False, steps)
    fused, fused_loops = _evaluate_unknown_length(tmp_path / "on", monkeypatch, True, steps)
    assert unfused_loops == (8 if steps is None else 4)  # 6 full batches, 1 short, 1 at the end
    assert fused_loops == 1
    assert sorted(fused) == sorted(unfused)
    for key, value in unfused.items():
        np.testing.assert_array_equal(fused[key], value, err_msg=key)
    assert unfused["static_rows"] == 1.0
