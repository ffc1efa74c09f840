"""Step fusion: one traced loop for the steps between two points where an observer needs control.

A program that trains one step per loop (iterations_per_loop=1, a plain `Estimator`) pays the
Python between loops at every step: hooks, the controller, one `tf.function` call. Nothing
needs most of those returns: the `loss` summaries, the NaN check and host_call/model_fn
summaries read every step's values inside or out of a longer loop alike. So when fusion is on,
the controller sizes each loop to end at the next step some observer must see (a checkpoint, the
`global_step/sec` report, max_steps, the end of the data, a hook's trigger) and runs the steps
in between in one traced loop. The loop stops at a NaN loss itself (`stop_at_nan`), as one-step
loops would have stopped there. Time-based cadences (save_checkpoints_secs) shrink the loops as
their deadline nears, so they fire after the same step as before, within the clock's noise.

Hooks are observers too. A hook is fused only when this module knows when it needs control:
the exact TF1 classes of `HOOK_CADENCES` (their step counters are advanced over the folded
steps, so their next trigger falls on the same step as with one step per loop) and hooks that
override none of before_run/after_run. Any other hook (one that may fetch tensors every step,
an `every_n_secs` timer, the bridge's per-loop timing/profiling hooks) keeps one step per loop,
and the log says once why. `ESTIMATOR_BRIDGE_STEP_FUSION=0` turns fusion off (docs/core.md).
"""

from __future__ import annotations

import logging
import math
import os
import time

import tensorflow as tf
from tensorflow.python.training import basic_session_run_hooks as _tf1_hooks

from estimator_bridge.hooks import CheckpointSaverHook, SessionRunHook

logger = logging.getLogger("estimator_bridge")

ENVIRONMENT_VARIABLE = "ESTIMATOR_BRIDGE_STEP_FUSION"
OFF_VALUES = ("0", "off", "false", "no")
# A fused loop is sized to last about this long at most: long enough that the Python between
# loops is noise (~1 ms a loop), short enough that SIGTERM and the log are answered promptly.
LOOP_SECONDS = 1.0

_reasons_logged = set()


def enabled() -> bool:
    """False when `ESTIMATOR_BRIDGE_STEP_FUSION` is 0/off/false/no."""
    return os.environ.get(ENVIRONMENT_VARIABLE, "1").strip().lower() not in OFF_VALUES


# ---- what each known hook needs ------------------------------------------------------------------
# A cadence answers `next_step(hook, step)`: the first global step after `step` whose
# before_run/after_run must surround exactly that step (None: none), and `fold(hook, n)`: account
# for n steps whose calls were folded into a longer loop (what those calls would have changed).

def _timer_next_step(timer, counter):
    """The counter value at which a SecondOrStepTimer with every_steps next triggers."""
    last = timer.last_triggered_step()
    return counter if last is None else max(last + timer._every_steps, counter)  # noqa: SLF001


def _logging_tensor_next(hook, step):
    if isinstance(hook._timer, _tf1_hooks.NeverTriggerTimer):  # noqa: SLF001  (at_end only)
        return None
    # The timer counts before_run calls (_iter_count), one per step here.
    trigger = _timer_next_step(hook._timer, hook._iter_count)  # noqa: SLF001
    return step + (trigger - hook._iter_count) + 1  # noqa: SLF001


def _logging_tensor_fold(hook, folded):
    hook._iter_count += folded  # noqa: SLF001  (what after_run did on non-trigger steps)


def _global_step_timer_next(hook, step):
    # Triggers on the global step after a loop: that step must end a loop.
    if hook._timer.last_triggered_step() is None:  # noqa: SLF001
        return step + 1
    return max(_timer_next_step(hook._timer, step), step + 1)  # noqa: SLF001


def _stop_at_step_next(hook, step):
    last = hook._last_step  # noqa: SLF001  (set in after_create_session)
    return None if last is None or last <= step else int(last)


def _no_fold(hook, folded):
    del hook, folded


def _steps_timer_reason(hook):
    timer = getattr(hook, "_timer", None)
    if isinstance(timer, _tf1_hooks.SecondOrStepTimer) and timer._every_secs is not None:  # noqa: SLF001
        return (f"{type(hook).__name__} fires every {timer._every_secs} s, so the step it "  # noqa: SLF001
                "sees depends on each step's time")
    return None


def _nan_tensor_reason(hook, loss_tensors):
    if any(hook._loss_tensor is loss for loss in loss_tensors):  # noqa: SLF001
        return None  # the fused loop stops at that loss's first NaN
    return "NanTensorHook watches a tensor other than the training loss, on every step"


# exact class -> (next_step, fold, reason(hook, loss_tensors) -> str | None)
HOOK_CADENCES = {
    _tf1_hooks.LoggingTensorHook: (_logging_tensor_next, _logging_tensor_fold,
                                   lambda hook, _: _steps_timer_reason(hook)),
    _tf1_hooks.StepCounterHook: (_global_step_timer_next, _no_fold,
                                 lambda hook, _: _steps_timer_reason(hook)),
    CheckpointSaverHook: (_global_step_timer_next, _no_fold,
                          lambda hook, _: _steps_timer_reason(hook)),
    _tf1_hooks.StopAtStepHook: (_stop_at_step_next, _no_fold, lambda hook, _: None),
    _tf1_hooks.NanTensorHook: (lambda hook, step: None, _no_fold, _nan_tensor_reason),
}


def _overrides_run_calls(hook) -> bool:
    cls = type(hook)
    return (cls.before_run is not SessionRunHook.before_run
            or cls.after_run is not SessionRunHook.after_run)


class HookCadences:
    """The hooks of one train() call, as fusion sees them."""

    def __init__(self, hooks, loss_tensors=()):
        self._known = []
        self.reason = None
        for hook in hooks:
            cadence = HOOK_CADENCES.get(type(hook))
            if cadence is None:
                if _overrides_run_calls(hook):
                    self.reason = (f"hook {type(hook).__module__}.{type(hook).__qualname__} "
                                   "overrides before_run/after_run, so it may fetch tensors or "
                                   "act on every step")
                    return
                continue  # begin/after_create_session/end only: no step needs it
            next_step, fold, reason = cadence
            self.reason = reason(hook, loss_tensors)
            if self.reason is not None:
                return
            self._known.append((hook, next_step, fold))

    def next_step(self, step: int):
        steps = [next_step(hook, step) for hook, next_step, _ in self._known]
        steps = [value for value in steps if value is not None]
        return min(steps) if steps else None

    def fold(self, folded: int) -> None:
        for hook, _, fold in self._known:
            fold(hook, folded)


# ---- the decision and the loop sizes ---------------------------------------------------------

def _several_workers(strategy) -> bool:
    resolver = getattr(strategy, "cluster_resolver", None)
    if resolver is None:
        return False
    try:
        spec = resolver.cluster_spec().as_dict()
    except (AttributeError, ValueError, RuntimeError):
        return False
    return sum(len(tasks) for name, tasks in spec.items() if name in ("chief", "worker")) > 1


class Fusion:
    """Loop sizes for one train() call with fusion on.

    `limit(step, size)` cuts a loop that would start at `step` at the next step a hook needs
    and at the time budget; `fold(size)` accounts the hooks for the steps folded into that loop;
    `after_loop(size, seconds)` measures the step time that sizes later loops.
    """

    def __init__(self, cadences: HookCadences, clock=time.monotonic, data_may_end=False):
        self._cadences = cadences
        self._clock = clock
        self._data_may_end = data_may_end
        self._step_seconds = None  # measured on the previous loop; None before the first

    def limit(self, step: int, size: int) -> int:
        """With `data_may_end` (data of unknown length) a loop stops one step short of a
        hook's trigger and the trigger step runs alone: a hook's before_run decides on the
        step it plans (LoggingTensorHook's counter), so a loop planned to end at a trigger but
        cut by the data's end would make the hook fire on a step where it did not."""
        if self._step_seconds is None:
            return 1  # the first loop measures the step time
        size = min(size, self.steps_within(LOOP_SECONDS))
        due = self._cadences.next_step(step)
        if due is not None:
            ahead = due - step
            size = min(size, ahead - 1 if self._data_may_end and ahead > 1 else ahead)
        return max(1, size)

    def steps_within(self, seconds: float) -> int:
        """How many steps fit in `seconds` (at least 1), at the measured step time."""
        if self._step_seconds is None or self._step_seconds <= 0:
            return 1
        return max(1, int(math.floor(seconds / self._step_seconds)))

    def until(self, deadline: float) -> int:
        """Steps that end before the `deadline` of a time-based cadence (at least 1)."""
        return self.steps_within(deadline - self._clock())

    def fold(self, size: int) -> None:
        if size > 1:
            self._cadences.fold(size - 1)

    def after_loop(self, steps: int, seconds: float) -> None:
        if steps > 0:
            self._step_seconds = seconds / steps


def decide(*, steps_per_loop, data_steps_known, hooks, loss_tensors, strategy,
           runs_to_end=False):
    """A `Fusion` for this train() call, or None (with the reason logged once).

    Only one step per loop is fused: longer loops (iterations_per_loop=N, a time-based
    iterations_per_loop) are the program's own choice, with hooks around each of them.
    Data of unknown length is fused only where the loop finds the data's end itself
    (`runs_to_end`, loops.TrainLoop).
    """
    if not enabled() or steps_per_loop != 1:
        return None
    reason = None
    if not data_steps_known and not runs_to_end:
        reason = ("input_fn's data has no known length, so each step runs alone until the data "
                  "ends")
    elif _several_workers(strategy):
        reason = "several workers run the loops, and their loop sizes must agree"
    cadences = HookCadences(hooks, loss_tensors)
    reason = reason or cadences.reason
    if reason is not None:
        if reason not in _reasons_logged:
            _reasons_logged.add(reason)
            logger.info("step fusion off for this train(): %s (one step per loop, as "
                        "configured).", reason)
        return None
    return Fusion(cadences, data_may_end=not data_steps_known)
