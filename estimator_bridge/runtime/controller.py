"""The outer training loop in Python: loop sizes, stop rules, checkpoints, summaries, logging.

Everything TF1 did in hooks between `Session.run` calls happens here between traced loops, in
the order TF1's hooks did it: a checkpoint at the starting step (CheckpointSaverHook), loops of
at most `iterations_per_loop` steps cut at checkpoint boundaries (TF1's CPU path saved exactly
every `save_checkpoints_steps`: measured), the `loss` summary at the first step and every
`save_summary_steps` after it, NaN checked on every step's loss (NanTensorHook: no final
checkpoint), `global_step/sec` at the steps TF1's StepCounterHook chose (step_rate.py), one
log line per loop in Orbit's format, and a final checkpoint. With step fusion
(step_fusion.py) a program of one step per loop runs, between two steps that one of these
observers (or a hook) needs, all the steps in one loop.

evaluate() and predict() have their outer loops here too (`run_evaluation`: the loss mean over
the steps; `run_prediction`: one step per batch until the data ends or a hook stops it), and
the evaluation summaries TF1 wrote into model_dir/eval (`write_evaluation_summaries`).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import sys
import time

import numpy as np
import tensorflow as tf

from estimator_bridge.runtime import preemption
from estimator_bridge.runtime.inputs import UNKNOWN_STEPS
from estimator_bridge.runtime.step_rate import StepRateReporter
from estimator_bridge.runtime.summaries import EveryNSteps, ScalarWriter

logger = logging.getLogger("estimator_bridge")

NanLossDuringTrainingError = tf.compat.v1.train.NanLossDuringTrainingError


@dataclasses.dataclass
class TrainPlan:
    """What one train() call must do.

    Attributes:
      start_step: the global step restored at the start.
      last_step: stop when the global step reaches it (None: until the data ends).
      steps_per_loop: iterations_per_loop.
      data_steps: global batches available (None infinite, UNKNOWN_STEPS unknown).
      save_checkpoints_steps / save_checkpoints_secs: checkpoint cadence.
      save_summary_steps: `loss` summary cadence.
      global_batch_size: for `examples/sec` (None: not written).
      rate_every_steps / rate_every_secs: when `global_step/sec` is reported (step_rate.py;
        both None: never).
      write_rates: whether those rates go into the event file (else only the log).
    """

    start_step: int
    last_step: int | None
    steps_per_loop: int
    data_steps: int | None
    save_checkpoints_steps: int | None
    save_checkpoints_secs: float | None
    save_summary_steps: int | None
    global_batch_size: int | None
    rate_every_steps: int | None = None
    rate_every_secs: float | None = None
    write_rates: bool = False
    loss_tag: str | None = "loss"  # the Estimator's loss summary: `loss_1` where TF 1.15 wrote that, None: none (loss_tag.py)


@dataclasses.dataclass
class TrainResult:
    final_step: int
    final_loss: float | None
    loops: int


def _loop_size(plan: TrainPlan, step: int, data_left, last_checkpoint_step: int, *,
               fusion=None, rate_reporter=None, last_checkpoint_time=None) -> int:
    size = plan.steps_per_loop
    if fusion is not None:
        size = _fused_size(plan, step, fusion, rate_reporter, last_checkpoint_time)
    if plan.last_step is not None:
        size = min(size, plan.last_step - step)
    if data_left == UNKNOWN_STEPS:
        if fusion is None:  # fused, the loop finds the data's end itself (TrainLoop.runs_to_end)
            size = min(size, 1)
    elif data_left is not None:
        size = min(size, data_left)
    if plan.save_checkpoints_steps:
        size = min(size, last_checkpoint_step + plan.save_checkpoints_steps - step)
    return size


def _fused_size(plan: TrainPlan, step: int, fusion, rate_reporter, last_checkpoint_time) -> int:
    """A fused loop ends at the next step an observer needs: a hook's trigger (fusion.limit),
    `global_step/sec`, or the step that crosses a time-based checkpoint's deadline (the loops
    shrink to one step as it nears). The `loss` summaries and the NaN check read every step's
    loss and need no cut; checkpoint steps, max_steps and the data's end are cut by the caller."""
    size = fusion.limit(step, sys.maxsize)
    if rate_reporter is not None and rate_reporter.enabled:
        due = rate_reporter.next_due_step(step)
        if due is not None:
            size = min(size, max(1, due - step))
        seconds = rate_reporter.seconds_until_due()
        if seconds is not None:
            size = min(size, fusion.steps_within(seconds))
    if plan.save_checkpoints_secs is not None and last_checkpoint_time is not None:
        size = min(size, fusion.until(last_checkpoint_time + plan.save_checkpoints_secs))
    return size


def run_training(plan: TrainPlan, *, run_loop, read_step, save_checkpoint, summary_writer,
                 should_stop=None, fusion=None) -> TrainResult:
    """Runs loops until the plan is done or SIGTERM arrives (see `_run_loops` for the args).

    SIGTERM (preemption) is handled only while this runs, in the main thread: the current loop
    finishes, a checkpoint is written at its step (even without periodic checkpoints), the
    message is logged and `TrainingPreempted` (a SystemExit, code 143) is raised.
    """
    saved = {}

    def save_and_remember(step):
        saved.update(step=step, path=save_checkpoint(step))

    with preemption.watch_for_sigterm() as notice:
        stop = notice.requested if should_stop is None else (
            lambda: notice.requested() or should_stop())
        result = _run_loops(plan, run_loop=run_loop, read_step=read_step,
                            save_checkpoint=save_and_remember, summary_writer=summary_writer,
                            should_stop=stop, fusion=fusion)
        if notice.requested():
            if saved.get("step") != result.final_step:
                save_and_remember(result.final_step)
            logger.warning(preemption.describe(result.final_step, saved.get("path")))
            raise preemption.TrainingPreempted(result.final_step, saved.get("path"))
    if result.loops == 0 and (plan.last_step is None or result.final_step < plan.last_step):
        # TF1 ended such a train() silently (OutOfRangeError stops the MonitoredSession).
        logger.warning(
            "train() ran no step: the dataset returned by input_fn had no batch (an empty "
            "dataset, or fewer rows than one batch with drop_remainder=True), so the global step "
            "stays at %d. Check the files/arrays input_fn reads and the batch size, or add "
            ".repeat() to the dataset.", result.final_step)
    return result


def _run_loops(plan: TrainPlan, *, run_loop, read_step, save_checkpoint, summary_writer,
               should_stop=None, fusion=None) -> TrainResult:
    """Runs loops until the plan is done.

    Args:
      plan: the TrainPlan.
      run_loop: `run_loop(num_steps) -> losses` (one traced call); a fused loop is
        `run_loop(num_steps, True)`: it stops after a NaN loss and returns the losses it ran.
      read_step: `() -> int`, the global step now.
      save_checkpoint: `(step) -> None`.
      summary_writer: a `summaries.ScalarWriter`.
      should_stop: `() -> bool`, asked after every loop (a hook called request_stop()).
      fusion: a `step_fusion.Fusion` (one step per loop fused), or None.

    Raises:
      NanLossDuringTrainingError: a step's loss was NaN (no final checkpoint is written).
      RuntimeError: a loop ran but the global step did not move (train_op does not increment it).
    """
    step = plan.start_step
    saving = bool(plan.save_checkpoints_steps) or plan.save_checkpoints_secs is not None
    if not saving:
        # TF1: with neither save_checkpoints_steps nor _secs there is no CheckpointSaverHook.
        save_checkpoint = lambda step: None  # noqa: E731
    save_checkpoint(step)
    last_checkpoint_step, last_checkpoint_time = step, time.monotonic()
    summary_timer = EveryNSteps(plan.save_summary_steps)
    rate_reporter = StepRateReporter(
        every_steps=plan.rate_every_steps, every_secs=plan.rate_every_secs,
        global_batch_size=plan.global_batch_size,
        summary_writer=summary_writer if plan.write_rates else None)
    data_left = plan.data_steps
    final_loss, loops = None, 0
    while True:
        size = _loop_size(plan, step, data_left, last_checkpoint_step, fusion=fusion,
                          rate_reporter=rate_reporter, last_checkpoint_time=last_checkpoint_time)
        if size <= 0:
            break
        if fusion is not None:
            fusion.fold(size)
        started = time.monotonic()
        try:
            losses = run_loop(size) if fusion is None else run_loop(size, True)
        except tf.errors.OutOfRangeError:
            if data_left != UNKNOWN_STEPS:
                raise
            break
        elapsed = time.monotonic() - started
        if fusion is not None:
            fusion.after_loop(len(losses), elapsed)
        loops += 1
        new_step = read_step()
        if data_left is not None and data_left != UNKNOWN_STEPS:
            data_left -= len(losses)
        elif data_left == UNKNOWN_STEPS and len(losses) < size and not np.isnan(losses).any():
            data_left = 0  # a fused loop on data of unknown length came back short: it ended
        # The steps before a NaN wrote their `loss` as one-step loops would have; then stop.
        _write_loss_summaries(summary_writer, summary_timer, _before_nan(losses), step,
                              plan.loss_tag)
        _check_nan(losses, step)
        rate_reporter.after_loop(new_step)
        steps_per_sec = (new_step - step) / elapsed if elapsed > 0 else float("inf")
        final_loss = float(losses[-1])
        logger.info("train | step: %d | steps/sec: %.1f | loss: %.7g", new_step, steps_per_sec,
                    final_loss)
        if new_step == step:
            raise RuntimeError(
                f"a loop of {size} step(s) ran but global_step stayed at {step}: the train_op "
                "returned by model_fn does not increment the global step, so training would "
                "never stop. Pass global_step to minimize: optimizer.minimize(loss, "
                "tf.compat.v1.train.get_global_step()).")
        step = new_step
        due_by_steps = (plan.save_checkpoints_steps
                        and step >= last_checkpoint_step + plan.save_checkpoints_steps)
        due_by_secs = (plan.save_checkpoints_secs is not None
                       and time.monotonic() - last_checkpoint_time >= plan.save_checkpoints_secs)
        if due_by_steps or due_by_secs:
            save_checkpoint(step)
            last_checkpoint_step, last_checkpoint_time = step, time.monotonic()
        if data_left == 0:
            break
        if should_stop is not None and should_stop():
            break
    if last_checkpoint_step != step:
        save_checkpoint(step)
    summary_writer.flush()
    if final_loss is not None:
        logger.info("Loss for final step: %s.", final_loss)
    return TrainResult(step, final_loss, loops)


def _before_nan(losses):
    nan = np.isnan(losses)
    return losses[:int(np.argmax(nan))] if nan.any() else losses


def _check_nan(losses, step_before):
    if np.isnan(losses).any():
        first = int(np.argmax(np.isnan(losses)))
        logger.error("Model diverged with loss = NaN at step %d.", step_before + first + 1)
        raise NanLossDuringTrainingError


def _write_loss_summaries(summary_writer, timer, losses, step_before, tag="loss"):
    if tag is None:  # model_fn's own `loss` summary is the series (loss_tag.has_own_loss_summary)
        return
    for offset, loss in enumerate(losses):
        step = step_before + offset + 1
        if timer.should_fire(step):
            summary_writer.scalars(step, {tag: loss})
            timer.fired(step)


_INT32_MAX = 2**31 - 1  # "until the data ends" for a loop whose step count is an int32


def run_evaluation(*, run_loop, num_steps, data_steps, run_to_end=None):
    """Runs eval loops; returns (loss mean, steps run). num_steps None = until the data ends.

    The loss is the unweighted float32 mean of the per-step losses (TF1 added
    `tf.metrics.mean(loss)`). Data of unknown length runs in one `run_to_end(max_steps) ->
    (loss sum, steps)` call where one is given (loops.EvalLoop.run_to_end), else one step
    per `run_loop(1)` until OutOfRange.
    """
    if num_steps is None and data_steps is None:
        raise ValueError("evaluate(steps=None) on an infinite input_fn (it uses .repeat()) "
                         "would never end: pass steps=, e.g. num_examples // eval_batch_size.")
    target = num_steps
    if data_steps is not None and data_steps != UNKNOWN_STEPS:
        target = data_steps if target is None else min(target, data_steps)
    total, done = np.float32(0.0), 0
    if data_steps == UNKNOWN_STEPS and run_to_end is not None:
        if target is None or target > 0:
            total, done = run_to_end(_INT32_MAX if target is None else target)
    elif data_steps == UNKNOWN_STEPS:
        while target is None or done < target:
            try:
                total = np.float32(total + run_loop(1))
            except tf.errors.OutOfRangeError:
                break
            done += 1
    elif target:
        total = np.float32(run_loop(target))
        done = target
    mean = np.float32(total / np.float32(done)) if done else np.float32(math.nan)
    return mean, done


def write_evaluation_summaries(results: dict, *, output_dir: str, name=None) -> None:
    """TF1's evaluation summaries: each scalar result but global_step, at the evaluated step.

    They go to `output_dir/eval` (`eval_<name>` for evaluate(name=...)), where TensorBoard
    and TF1's Estimator put them.
    """
    eval_dir = os.path.join(output_dir, "eval" if not name else f"eval_{name}")
    writer = ScalarWriter(eval_dir)
    writer.scalars(int(results["global_step"]),
                   {key: value for key, value in results.items()
                    if key != "global_step" and np.ndim(value) == 0})
    writer.close()


def run_prediction(*, run_batch, data_steps, should_stop, run_batches=None, sizer=None):
    """Yields `run_batch()`'s predicted batches until the data ends or a hook asks to stop.

    Args:
      run_batch: `() -> batch`, one traced predict step (hooks around it: one Session.run per
        batch in TF1).
      data_steps: batches available (None infinite, UNKNOWN_STEPS unknown: until OutOfRange).
      should_stop: `() -> bool`, asked after each batch has been consumed.
      run_batches: fused (predict_fusion.py): `(n) -> [batch, ...]`, up to n batches in one
        call, fewer where the data ends; used after the first batch (which `run_batch` runs:
        its step is traced already, so the first prediction comes as soon as unfused and a
        one-batch predict() never traces the fused loop), sized by `sizer` (a
        `predict_fusion.BatchSizer`).
    """
    if run_batches is not None:
        yield from _run_fused_prediction(run_batch, run_batches, data_steps, should_stop, sizer)
        return
    done = 0
    while data_steps in (None, UNKNOWN_STEPS) or done < data_steps:
        try:
            batch = run_batch()
        except tf.errors.OutOfRangeError:
            break
        done += 1
        yield batch
        if should_stop():
            break


def _run_fused_prediction(run_batch, run_batches, data_steps, should_stop, sizer):
    known = data_steps not in (None, UNKNOWN_STEPS)
    done = 0
    while True:
        size = sizer.next_size(data_steps - done if known else None)
        if size <= 0:
            return
        started = time.monotonic()
        if done == 0 and size == 1:
            try:
                batches = [run_batch()]
            except tf.errors.OutOfRangeError:
                return
        else:
            batches = run_batches(size)
        sizer.after_call(len(batches), time.monotonic() - started,
                         sum(_nbytes(batch) for batch in batches))
        for batch in batches:
            done += 1
            yield batch
            if should_stop():
                return
        if len(batches) < size:  # the data ended
            return


def _nbytes(batch) -> int:
    return sum(getattr(value, "nbytes", 0) for value in tf.nest.flatten(batch))
