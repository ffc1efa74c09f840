"""SIGTERM during train(): finish the current loop, checkpoint at that step, stop with a message.

TPU and cloud preemption sends SIGTERM and waits a grace period before SIGKILL. TPUEstimator
died on it and lost everything since its last periodic checkpoint. The bridge installs a
handler for the duration of `train()` (main thread only: Python delivers signals there and
`signal.signal` refuses other threads), which only records the request; the controller reads it
between loops, where the variables are consistent, writes `model.ckpt-<step>` and then raises
`TrainingPreempted`.

`TrainingPreempted` is a `SystemExit` whose code is 143 (128 + SIGTERM, the code TensorFlow's
own `PreemptionCheckpointHandler` exits with for a restartable job): left uncaught, the process
exits with status 143 and no traceback, which a scheduler reads as "preempted, restart me";
`except Exception` in user code does not swallow it; a program that wants to continue catches
`TrainingPreempted` and reads `.step` and `.checkpoint_path`.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading

logger = logging.getLogger("estimator_bridge")

PREEMPTED_EXIT_CODE = 143


class TrainingPreempted(SystemExit):
    """train() stopped on SIGTERM after saving a checkpoint at `step`.

    Attributes:
      code: PREEMPTED_EXIT_CODE (143), the process exit status if uncaught.
      step: the global step of the checkpoint written before stopping.
      checkpoint_path: that checkpoint's prefix (None if the bridge could not name it).
    """

    def __init__(self, step: int, checkpoint_path: str | None):
        super().__init__(PREEMPTED_EXIT_CODE)
        self.step = step
        self.checkpoint_path = checkpoint_path

    def __str__(self):
        return describe(self.step, self.checkpoint_path)


def describe(step: int, checkpoint_path: str | None) -> str:
    where = checkpoint_path or f"model.ckpt-{step}"
    return (f"training preempted (SIGTERM): stopped after the loop ending at global step {step} "
            f"and saved checkpoint {where}. Run train() again with the same model_dir to "
            f"resume from step {step}; exit code {PREEMPTED_EXIT_CODE}.")


class PreemptionNotice:
    """Whether SIGTERM arrived while installed; `requested()` is read between loops."""

    def __init__(self):
        self._requested = False

    def requested(self) -> bool:
        return self._requested

    def _on_signal(self, signum, frame):
        if self._requested:
            logger.warning("SIGTERM again: still finishing the current loop and its checkpoint.")
            return
        self._requested = True
        logger.warning("SIGTERM received: finishing the current loop, then saving a checkpoint "
                       "and stopping.")


@contextlib.contextmanager
def watch_for_sigterm():
    """Installs the SIGTERM handler for the block (main thread only) and restores the old one."""
    notice = PreemptionNotice()
    if threading.current_thread() is not threading.main_thread():
        yield notice  # signals reach only the main thread's handlers; nothing to install
        return
    previous = signal.signal(signal.SIGTERM, notice._on_signal)
    try:
        yield notice
    finally:
        signal.signal(signal.SIGTERM, previous)
