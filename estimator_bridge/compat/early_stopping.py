"""TF 1.x's early-stopping hooks (tf.estimator.experimental, tf.contrib.estimator before TF 1.13).

`stop_if_no_decrease_hook(estimator, "loss", max_steps_without_decrease=...)` and its siblings
read the evaluations written under the estimator's `eval` folder (scalar summaries, which the
bridge writes in TF1's format: runtime/summaries.py) every `run_every_secs` seconds or
`run_every_steps` steps of training, and stop training once the predicate holds. TF 2.16 removed
them with tf.estimator; a 2018 TF-Slim fine-tuning trainer passed one to its TrainSpec.

On the bridge the check runs after a loop (one before_run/after_run per loop, as every hook), and
stopping ends training after that loop. Not reproduced: TF 1.15's hook also created a global
variable `signal_early_stopping/STOP` in begin() (it lands in the checkpoints; non-chief workers
polled it); the bridge's checkpoints do not have it.
"""

from __future__ import annotations

import collections
import glob
import logging
import operator
import os

import tensorflow as tf
from tensorflow.python.training import basic_session_run_hooks as _tf1_hooks

logger = logging.getLogger("estimator_bridge")


def read_eval_metrics(eval_dir):
    """`{global_step: {tag: value}}` of the scalar summaries in eval_dir's event files, by step."""
    by_step = collections.defaultdict(dict)
    for path in sorted(glob.glob(os.path.join(eval_dir, "*.tfevents.*"))):
        for event in tf.compat.v1.train.summary_iterator(path):
            if not event.HasField("summary"):
                continue
            scalars = {value.tag: value.simple_value for value in event.summary.value
                       if value.HasField("simple_value")}
            by_step[event.step].update(scalars)
    return collections.OrderedDict(sorted(by_step.items()))


class _StopOnPredicateHook(tf.compat.v1.train.SessionRunHook):
    """Calls `should_stop_fn()` when the timer fires for the global step; stops when it is True."""

    def __init__(self, should_stop_fn, run_every_secs=60, run_every_steps=None):
        if not callable(should_stop_fn):
            raise TypeError("`should_stop_fn` must be callable.")
        self._should_stop_fn = should_stop_fn
        self._timer = _tf1_hooks.SecondOrStepTimer(every_secs=run_every_secs,
                                                   every_steps=run_every_steps)

    def begin(self):
        self._global_step = tf.compat.v1.train.get_global_step()

    def before_run(self, run_context):
        return tf.compat.v1.train.SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values):
        step = int(run_values.results)
        if not self._timer.should_trigger_for_step(step):
            return
        self._timer.update_last_triggered_step(step)
        if self._should_stop_fn():
            logger.info("Requesting early stopping at global step %d", step)
            run_context.request_stop()


def make_early_stopping_hook(estimator, should_stop_fn, run_every_secs=60, run_every_steps=None):
    """A hook that stops training when `should_stop_fn()` returns True (checked on the timer)."""
    if run_every_secs is not None and run_every_steps is not None:
        raise ValueError("Only one of run_every_secs and run_every_steps can be passed in.")
    if not estimator.config.is_chief:
        raise NotImplementedError(
            "early-stopping hooks on a non-chief worker polled the chief's stop variable in TF 1.x; "
            "the bridge has none: pass the hook on the chief only.")
    return _StopOnPredicateHook(should_stop_fn, run_every_secs, run_every_steps)


def _eval_dir(estimator, eval_dir):
    return eval_dir or os.path.join(estimator.model_dir, "eval")


def _no_improvement_hook(estimator, metric_name, max_steps, higher_is_better, eval_dir, min_steps,
                         run_every_secs, run_every_steps):
    folder = _eval_dir(estimator, eval_dir)
    better = operator.gt if higher_is_better else operator.lt

    def no_improvement():
        best = best_step = None
        for step, metrics in read_eval_metrics(folder).items():
            if step < min_steps:
                continue
            value = metrics[metric_name]
            if best is None or better(value, best):
                best, best_step = value, step
            if step - best_step >= max_steps:
                logger.info("No %s in metric %r for %d steps (max %d): early stopping.",
                            "increase" if higher_is_better else "decrease", metric_name,
                            step - best_step, max_steps)
                return True
        return False

    return make_early_stopping_hook(estimator, no_improvement, run_every_secs, run_every_steps)


def _threshold_hook(estimator, metric_name, threshold, crossed, eval_dir, min_steps,
                    run_every_secs, run_every_steps):
    folder = _eval_dir(estimator, eval_dir)

    def past_threshold():
        return any(step >= min_steps and crossed(metrics[metric_name], threshold)
                   for step, metrics in read_eval_metrics(folder).items())

    return make_early_stopping_hook(estimator, past_threshold, run_every_secs, run_every_steps)


def stop_if_no_decrease_hook(estimator, metric_name, max_steps_without_decrease, eval_dir=None,
                             min_steps=0, run_every_secs=60, run_every_steps=None):
    """Stops when `metric_name` has not decreased for `max_steps_without_decrease` steps."""
    return _no_improvement_hook(estimator, metric_name, max_steps_without_decrease, False,
                                eval_dir, min_steps, run_every_secs, run_every_steps)


def stop_if_no_increase_hook(estimator, metric_name, max_steps_without_increase, eval_dir=None,
                             min_steps=0, run_every_secs=60, run_every_steps=None):
    """Stops when `metric_name` has not increased for `max_steps_without_increase` steps."""
    return _no_improvement_hook(estimator, metric_name, max_steps_without_increase, True,
                                eval_dir, min_steps, run_every_secs, run_every_steps)


def stop_if_higher_hook(estimator, metric_name, threshold, eval_dir=None, min_steps=0,
                        run_every_secs=60, run_every_steps=None):
    """Stops when an evaluation at or after `min_steps` has `metric_name` above `threshold`."""
    return _threshold_hook(estimator, metric_name, threshold, operator.gt, eval_dir, min_steps,
                           run_every_secs, run_every_steps)


def stop_if_lower_hook(estimator, metric_name, threshold, eval_dir=None, min_steps=0,
                       run_every_secs=60, run_every_steps=None):
    """Stops when an evaluation at or after `min_steps` has `metric_name` below `threshold`."""
    return _threshold_hook(estimator, metric_name, threshold, operator.lt, eval_dir, min_steps,
                           run_every_secs, run_every_steps)
