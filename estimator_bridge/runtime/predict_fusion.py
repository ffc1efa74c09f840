"""Predict fusion: several predicted batches per traced call, yielded from a buffer.

predict() yields per example, and TF1 ran one Session.run per batch with the hooks around it.
Batches are independent in PREDICT mode (no variable changes), so when no hook needs to see
each batch the bridge runs several batches in one traced loop (`PredictLoop.run_batches`)
and yields them one by one: the same values in the same order, fewer Python round trips.

How many batches per call: the first batch runs alone, in the one-batch step traced for the
hooks (its predictions come back as soon as unfused ones would, a one-batch predict() never
traces the fused loop, and it measures a batch's time and size); later calls run as many as fit
in `CALL_SECONDS` and in `BUFFER_BYTES` of predictions, at most `MAX_BATCHES`. The buffer
is what a consumer that stops early has computed for nothing: bounded by those three.

Fusion declines, with one log line saying why, where a batch must be its own call: a hook
that overrides before_run/after_run (it may fetch or act per batch, as TF1's hooks did per
Session.run), several replicas (a short last batch is split across them one call at a time),
predictions of rank 0 or unknown rank (they have no batch axis to concatenate along).
`ESTIMATOR_BRIDGE_STEP_FUSION=0` turns it off with training fusion (step_fusion.py).
"""

from __future__ import annotations

import logging
import math

from estimator_bridge.hooks import SessionRunHook
from estimator_bridge.runtime import step_fusion

logger = logging.getLogger("estimator_bridge")

CALL_SECONDS = 0.5
BUFFER_BYTES = 64 << 20
MAX_BATCHES = 64

_reasons_logged = set()


def _overrides_run_calls(hook) -> bool:
    cls = type(hook)
    return (cls.before_run is not SessionRunHook.before_run
            or cls.after_run is not SessionRunHook.after_run)


def decline_reason(*, hooks, num_replicas, prediction_specs):
    """Why this predict() keeps one batch per call (None: it fuses). Logged once per reason."""
    if not step_fusion.enabled():
        return f"{step_fusion.ENVIRONMENT_VARIABLE} turns fusion off"
    reason = None
    if num_replicas != 1:
        reason = (f"{num_replicas} replicas share each batch, and a short last batch is split "
                  "across them one call at a time")
    for hook in hooks:
        if reason is None and _overrides_run_calls(hook):
            reason = (f"hook {type(hook).__module__}.{type(hook).__qualname__} overrides "
                      "before_run/after_run, so it may fetch or act on every batch")
    if reason is None and any(spec.shape.rank is None or spec.shape.rank == 0
                              for spec in prediction_specs):
        reason = "a prediction has no batch axis (rank 0 or unknown)"
    if reason is not None and reason not in _reasons_logged:
        _reasons_logged.add(reason)
        logger.info("predict fusion off: %s (one batch per call).", reason)
    return reason


class BatchSizer:
    """Batches per fused call: 1 first, then what fits the time and buffer budgets."""

    def __init__(self):
        self._batch_seconds = None
        self._batch_bytes = None

    def next_size(self, batches_left=None) -> int:
        size = 1
        if self._batch_seconds is not None:
            size = MAX_BATCHES
            if self._batch_seconds > 0:
                size = min(size, int(math.floor(CALL_SECONDS / self._batch_seconds)))
            if self._batch_bytes:
                size = min(size, BUFFER_BYTES // self._batch_bytes)
        if batches_left is not None:
            size = min(size, batches_left)
        return max(1, size) if batches_left is None or batches_left > 0 else 0

    def after_call(self, batches: int, seconds: float, nbytes: int) -> None:
        if batches > 0:
            self._batch_seconds = seconds / batches
            self._batch_bytes = max(1, nbytes // batches)
