"""`tf.estimator.TrainSpec`, `EvalSpec` and `train_and_evaluate` on the bridge.

TF 1.15's rules (tensorflow_estimator/python/estimator/training.py), which many Estimator and
TPUEstimator programs drive their whole run with:
- locally (no cluster in TF_CONFIG): one `estimator.train(max_steps=TrainSpec.max_steps)`; a
  checkpoint listener evaluates after every checkpoint save except the first (the one at the
  starting step), at most once every `EvalSpec.throttle_secs` seconds, and once more after the
  last save unless that step was just evaluated; each evaluation restores the newest
  checkpoint, runs `EvalSpec.steps` steps and then calls every exporter. So the evaluation
  cadence is RunConfig's save_checkpoints_steps/secs, thinned by throttle_secs (600 by default:
  short local runs evaluate at the first save after step 0 and at the end). Returns
  `(metrics of the last evaluation, export results of the last evaluation)`.
- TF_CONFIG task `evaluator`: waits `start_delay_secs`, then evaluates every new checkpoint the
  training cluster writes (at most once every `throttle_secs`) until the evaluated global step
  reaches TrainSpec.max_steps (forever without max_steps). Only task 0 may be an evaluator.
- TF_CONFIG tasks `chief` and `worker`: `estimator.train(max_steps=...)` with TrainSpec's hooks;
  no evaluation there (the evaluator task does it). TF 1.15's workers slept (index+1)*5 s (at
  most 60 s) first, to let between-graph replication join one by one; the bridge trains
  multi-worker synchronously (MultiWorkerMirroredStrategy: all workers start each step
  together), so it does not sleep.
- `master`: train with the evaluation listener, as locally. `ps`: the bridge has no parameter
  servers; refused with the fix.
"""

from __future__ import annotations

import collections
import logging
import os
import time

from tensorflow.python.training import basic_session_run_hooks as _tf1_hooks

from estimator_bridge.exporters import Exporter
from estimator_bridge.hooks import CheckpointSaverListener, SessionRunHook

logger = logging.getLogger("estimator_bridge")


# ---- the specs ------------------------------------------------------------------------------

def _check_input_fn(input_fn):
    if not callable(input_fn):
        raise TypeError(f"`input_fn` must be callable, given: {input_fn}")


def _check_hooks(hooks):
    hooks = tuple(hooks or ())
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be `SessionRunHook` instances, given: {hook}")
    return hooks


def _check_saving_listeners(listeners):
    listeners = tuple(listeners or ())
    for listener in listeners:
        if not isinstance(listener, CheckpointSaverListener):
            raise TypeError("All saving_listeners must be `CheckpointSaverListener` instances, "
                            f"given: {listener}")
    return listeners


def _check_exporters(exporters):
    if not exporters:
        return ()
    if isinstance(exporters, Exporter):
        exporters = [exporters]
    try:
        exporters = list(exporters)
    except TypeError:
        exporters = [exporters]
    names = []
    for exporter in exporters:
        if not isinstance(exporter, Exporter):
            raise TypeError("`exporters` must be an Exporter, an iterable of Exporter, or "
                            f"`None`, found {exporters}. Use estimator_bridge.exporters' "
                            "LatestExporter, FinalExporter or BestExporter (or subclass "
                            "estimator_bridge.exporters.Exporter).")
        if not exporter.name:
            raise ValueError("An Exporter cannot have a name that is `None` or empty. All "
                             f"exporter names: {[e.name for e in exporters]}")
        if not isinstance(exporter.name, str):
            raise ValueError(f"An Exporter must have a string name. Given: {type(exporter.name)}")
        if exporter.name in names:
            raise ValueError("`exporters` must have unique names. Such a name cannot be `None`. "
                             f"All exporter names: {[e.name for e in exporters]}")
        names.append(exporter.name)
    return tuple(exporters)


class TrainSpec(collections.namedtuple(
        "TrainSpec", ["input_fn", "max_steps", "hooks", "saving_listeners"])):
    """The training half of `train_and_evaluate`: input_fn, max_steps (None: forever), hooks.

    `saving_listeners` is tf-estimator 2.x's addition (CheckpointSaverListeners run beside the
    evaluation listener); TF 1.15's TrainSpec had the first three fields only.
    """

    def __new__(cls, input_fn, max_steps=None, hooks=None, saving_listeners=None):
        _check_input_fn(input_fn)
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        return super().__new__(cls, input_fn=input_fn, max_steps=max_steps,
                               hooks=_check_hooks(hooks),
                               saving_listeners=_check_saving_listeners(saving_listeners))


class EvalSpec(collections.namedtuple(
        "EvalSpec", ["input_fn", "steps", "name", "hooks", "exporters", "start_delay_secs",
                     "throttle_secs"])):
    """The evaluation half: input_fn, steps (None: to the data end), name, hooks, exporters,
    start_delay_secs (evaluator task only) and throttle_secs (minimum seconds between two
    evaluations)."""

    def __new__(cls, input_fn, steps=100, name=None, hooks=None, exporters=None,
                start_delay_secs=120, throttle_secs=600):
        _check_input_fn(input_fn)
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name}")
        if start_delay_secs < 0:
            raise ValueError(f"Must specify start_delay_secs >= 0, given: {start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: {throttle_secs}")
        return super().__new__(cls, input_fn=input_fn, steps=steps, name=name,
                               hooks=_check_hooks(hooks), exporters=_check_exporters(exporters),
                               start_delay_secs=start_delay_secs, throttle_secs=throttle_secs)


# ---- evaluation of the newest checkpoint ----------------------------------------------------

EVALUATED, MISSING_CHECKPOINT, NO_NEW_CHECKPOINT = (
    "evaluated", "missing checkpoint", "no new checkpoint")

EvalResult = collections.namedtuple("EvalResult", ["status", "metrics", "checkpoint_path"])


class _Evaluator:
    """Evaluates the newest checkpoint once (none new: says so) and runs the exporters."""

    def __init__(self, estimator, eval_spec, max_training_steps):
        self._estimator = estimator
        self._eval_spec = eval_spec
        self._max_training_steps = max_training_steps
        self._previous_checkpoint = None
        self._last_warning_time = 0.0

    def evaluate_and_export(self):
        checkpoint = self._estimator.latest_checkpoint()
        if not checkpoint:
            self._warn("Estimator is not trained yet. Will start an evaluation when a "
                       "checkpoint is ready.")
            return EvalResult(MISSING_CHECKPOINT, None, None), []
        if checkpoint == self._previous_checkpoint:
            self._warn("No new checkpoint ready for evaluation. Skip the current evaluation "
                       "pass as evaluation results are expected to be same for the same "
                       "checkpoint.")
            return EvalResult(NO_NEW_CHECKPOINT, None, None), []
        metrics = self._estimator.evaluate(
            input_fn=self._eval_spec.input_fn, steps=self._eval_spec.steps,
            name=self._eval_spec.name, checkpoint_path=checkpoint, hooks=self._eval_spec.hooks)
        result = EvalResult(EVALUATED, metrics, checkpoint)
        is_final = bool(self._max_training_steps) and (
            metrics["global_step"] >= self._max_training_steps)
        export_base = os.path.join(str(self._estimator.model_dir), "export")
        exports = [exporter.export(estimator=self._estimator,
                                   export_path=os.path.join(export_base, exporter.name),
                                   checkpoint_path=checkpoint, eval_result=metrics,
                                   is_the_final_export=is_final)
                   for exporter in self._eval_spec.exporters]
        self._last_warning_time = 0.0
        self._previous_checkpoint = checkpoint
        return result, exports

    def _warn(self, message):
        now = time.time()
        if now - self._last_warning_time > 600:
            logger.warning(message)
            self._last_warning_time = now


class _EvaluateAfterSave(CheckpointSaverListener):
    """Local train_and_evaluate: evaluate after each checkpoint but the first, throttled."""

    def __init__(self, evaluator, throttle_secs):
        self._evaluator = evaluator
        self._throttle_secs = throttle_secs
        self.eval_result, self.export_results = None, None

    def begin(self):
        self._timer = _tf1_hooks.SecondOrStepTimer(every_secs=self._throttle_secs)
        self._is_first_run = True

    def after_save(self, session, global_step_value):
        del session
        if self._is_first_run:  # the checkpoint at the starting step: nothing trained yet
            self._is_first_run = False
            return
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
        else:
            logger.info("Skip the current checkpoint eval due to throttle secs (%s secs).",
                        self._throttle_secs)

    def end(self, session, global_step_value):
        if global_step_value != self._timer.last_triggered_step():
            self._evaluate(global_step_value)

    def _evaluate(self, global_step_value):
        self._timer.update_last_triggered_step(global_step_value)
        self.eval_result, self.export_results = self._evaluator.evaluate_and_export()
        if self.eval_result.status != EVALUATED:
            raise RuntimeError("There was no new checkpoint after the training. Eval status: "
                               f"{self.eval_result.status}")


# ---- train_and_evaluate ---------------------------------------------------------------------

def _check_estimator(estimator):
    for method in ("train", "evaluate", "latest_checkpoint", "config", "model_dir"):
        if not hasattr(estimator, method):
            raise TypeError("`estimator` must be an estimator_bridge Estimator or TPUEstimator "
                            f"(it has no `{method}`), given: {type(estimator).__name__}")


def train_and_evaluate(estimator, train_spec, eval_spec):
    """Trains `estimator`, evaluating (and exporting) along the way; see the module docstring.

    Returns:
      locally: (the last evaluation's metrics dict, the last evaluation's export results);
      on a TF_CONFIG cluster: None, as TF 1.15.
    """
    _check_estimator(estimator)
    if not isinstance(train_spec, TrainSpec):
        raise TypeError("`train_spec` must have type `tf.estimator.TrainSpec` "
                        f"(estimator_bridge.TrainSpec). Got: {type(train_spec)}")
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError("`eval_spec` must have type `tf.estimator.EvalSpec` "
                        f"(estimator_bridge.EvalSpec). Got: {type(eval_spec)}")
    config = estimator.config
    task_type = config.task_type
    if task_type == "evaluator" and config.task_id > 0:
        raise ValueError("For distributed training, there can only be one `evaluator` task "
                         f"(with task id 0).  Given task id {config.task_id}")
    if not config.cluster_spec and task_type != "evaluator":
        logger.info("Running training and evaluation locally (non-distributed).")
        return _run_local(estimator, train_spec, eval_spec)
    if task_type == "evaluator":
        _run_evaluator(estimator, train_spec, eval_spec)
    elif task_type in ("chief", "worker"):
        estimator.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps,
                        hooks=list(train_spec.hooks),
                        saving_listeners=list(train_spec.saving_listeners))
    elif task_type == "master":
        _run_local(estimator, train_spec, eval_spec)
    elif task_type == "ps":
        raise ValueError(
            "TF_CONFIG names this task `ps` (a parameter server): estimator_bridge trains "
            "multi-worker with synchronous all-reduce (MultiWorkerMirroredStrategy) and has no "
            "parameter servers. Remove the `ps` job from TF_CONFIG's cluster and do not start "
            "this task; the chief and workers train without it.")
    else:
        raise ValueError(f"Task type {task_type!r} is not supported. Supported task types are "
                         "['chief', 'worker', 'master', 'evaluator'].")
    return None


def _run_local(estimator, train_spec, eval_spec):
    config = estimator.config
    logger.info("Start train and evaluate loop. The evaluate will happen after every "
                "checkpoint. Checkpoint frequency is determined based on RunConfig arguments: "
                "save_checkpoints_steps %s or save_checkpoints_secs %s.",
                config.save_checkpoints_steps, config.save_checkpoints_secs)
    listener = _EvaluateAfterSave(_Evaluator(estimator, eval_spec, train_spec.max_steps),
                                  eval_spec.throttle_secs)
    estimator.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps,
                    hooks=list(train_spec.hooks),
                    saving_listeners=list(train_spec.saving_listeners) + [listener])
    if listener.eval_result is None:
        return None, None
    return listener.eval_result.metrics, listener.export_results


def _run_evaluator(estimator, train_spec, eval_spec, sleep=time.sleep):
    if eval_spec.start_delay_secs:
        logger.info("Waiting %f secs before starting eval.", eval_spec.start_delay_secs)
        sleep(eval_spec.start_delay_secs)
    evaluator = _Evaluator(estimator, eval_spec, train_spec.max_steps)
    while True:
        started = time.time()
        result, _ = evaluator.evaluate_and_export()
        if result.status == EVALUATED:
            step = result.metrics.get("global_step")
            if step and train_spec.max_steps and step >= train_spec.max_steps:
                logger.info("Exiting evaluation, global_step=%s >= train max_steps=%s", step,
                            train_spec.max_steps)
                return
        wait = eval_spec.throttle_secs - (time.time() - started)
        if wait > 0:
            logger.info("Waiting %f secs before starting next eval run.", wait)
            sleep(wait)
        elif eval_spec.throttle_secs == 0 and result.status != EVALUATED:
            logger.warning("EvalSpec.throttle_secs is set as 0. This might overload the job "
                           "before finding (next) new checkpoint. Please consider to increase "
                           "it.")
