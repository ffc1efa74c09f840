"""`global_step/sec` and `examples/sec` at the steps TPUEstimator's ExamplesPerSecondHook chose.

TF 1.15 reported training speed through a StepCounterHook: TPUEstimator's
`ExamplesPerSecondHook` every `ceil(log_step_count_steps / iterations_per_loop)` steps (every
`iterations_per_loop` seconds for a time-based "30s"), written to model_dir only when
`save_summary_steps` is set; a plain Estimator's StepCounterHook every `log_step_count_steps`
steps, `global_step/sec` only. The hook's timer fires on the first run without reporting
(it only starts the clock), then whenever the step has moved `every_steps` past the last firing;
the rate is the steps since the last firing over the wall time since then. Measured on TF 1.15
(use_tpu=False, log_step_count_steps=100, max_steps=250): iterations_per_loop=1 reports at
steps 101 and 201; 10 reports every 10 steps; nothing with save_summary_steps=0 or
log_step_count_steps=None.

The bridge asks after every loop, as the hook's after_run ran once per loop on a TPU. Writing
the rate after every loop instead (what the bridge did before) also cost 230-390 us per loop,
a fifth of a one-step loop (docs/core.md).
"""

from __future__ import annotations

import logging
import math
import time

logger = logging.getLogger("estimator_bridge")


def tpu_estimator_cadence(log_step_count_steps, iterations_per_loop):
    """(every_steps, every_secs) of TPUEstimator's ExamplesPerSecondHook, or (None, None).

    `iterations_per_loop` is the parsed value: (value, unit) with unit "count" or "seconds".
    """
    value, unit = iterations_per_loop
    if unit == "seconds":
        return None, value
    if log_step_count_steps is None:
        return None, None
    return int(math.ceil(float(log_step_count_steps) / value)), None


class StepRateReporter:
    """Fires after loops as TF1's SecondOrStepTimer did; writes and logs the rates it measures.

    Args:
      every_steps / every_secs: the timer's period (both None: never reports).
      global_batch_size: adds `examples/sec` (None: `global_step/sec` only).
      summary_writer: a `summaries.ScalarWriter`, or None to log without writing.
      clock: wall-clock seconds (TF1 used time.time).
    """

    def __init__(self, *, every_steps=None, every_secs=None, global_batch_size=None,
                 summary_writer=None, clock=time.time):
        self._every_steps = every_steps
        self._every_secs = every_secs
        self._global_batch_size = global_batch_size
        self._summary_writer = summary_writer
        self._clock = clock
        self._last_step = None
        self._last_time = None

    @property
    def enabled(self) -> bool:
        return self._every_steps is not None or self._every_secs is not None

    def after_loop(self, step: int) -> None:
        if not self._should_fire(step):
            return
        now = self._clock()
        if self._last_step is not None and now > self._last_time:
            steps_per_sec = (step - self._last_step) / (now - self._last_time)
            rates = {"global_step/sec": steps_per_sec}
            if self._global_batch_size:
                rates["examples/sec"] = steps_per_sec * self._global_batch_size
            if self._summary_writer is not None:
                self._summary_writer.scalars(step, rates)
            for tag, rate in rates.items():
                logger.info("%s: %g", tag, rate)
        self._last_step, self._last_time = step, now

    def next_due_step(self, step: int):
        """The first step after `step` at which the timer fires by steps (None: not by steps).
        Before the first firing that is `step + 1`: it fires after the first loop whatever its
        length, so a fused loop (step_fusion.py) must then be one step, to start the clock there."""
        if not self.enabled:
            return None
        if self._last_step is None:
            return step + 1
        if self._every_steps is None:
            return None
        return self._last_step + self._every_steps

    def seconds_until_due(self):
        """Seconds until the timer fires by time (None: not by time, or not started)."""
        if self._every_secs is None or self._last_time is None:
            return None
        return self._last_time + self._every_secs - self._clock()

    def _should_fire(self, step: int) -> bool:
        if not self.enabled:
            return False
        if self._last_step is None:
            return True
        if self._last_step == step:
            return False
        if self._every_secs is not None and self._clock() >= self._last_time + self._every_secs:
            return True
        return self._every_steps is not None and step >= self._last_step + self._every_steps
