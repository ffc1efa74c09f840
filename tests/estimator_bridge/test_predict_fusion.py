"""Predict fusion changes nothing observable: predictions fused against unfused, per input kind.

Each test predicts with the same checkpoint twice, once with ESTIMATOR_BRIDGE_STEP_FUSION=0
(one traced call per batch, as TF1's one Session.run per batch) and once with fusion on, and
compares every prediction bit for bit and in order. It also counts the traced calls, so that
it fails if fusion did not run (or ran where a hook must see each batch).
"""

from __future__ import annotations

import itertools
import logging

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.runtime import predict as predict_lib
from estimator_bridge.runtime import predict_fusion, step_fusion
from tests.estimator_bridge import tiny
from tests.estimator_bridge.test_predict import model_fn, trained

tf1 = tf.compat.v1

# 20 batches of 16 and a short one of 8.
ROWS = np.concatenate([tiny.FEATURES] * 6)[:328]


def finite_input_fn(params):
    return tf.data.Dataset.from_tensor_slices(ROWS).batch(params["batch_size"])


def unknown_length_input_fn(params):
    """A `filter` hides the length: the loop must find the data's end by itself."""
    return tf.data.Dataset.from_tensor_slices(ROWS).filter(lambda row: True).batch(
        params["batch_size"])


def infinite_input_fn(params):
    return tf.data.Dataset.from_tensor_slices(ROWS).repeat().batch(params["batch_size"])


_CALL, _RUN_BATCHES = predict_lib.PredictLoop.__call__, predict_lib.PredictLoop.run_batches


class _Calls:
    """Counts the traced calls of PredictLoop (one batch each, or several fused)."""

    def __init__(self, monkeypatch):
        self.single, self.fused = 0, 0
        call, run_batches = _CALL, _RUN_BATCHES

        def counted_call(loop, iterator):
            self.single += 1
            return call(loop, iterator)

        def counted_run_batches(loop, iterator, max_batches):
            self.fused += 1
            return run_batches(loop, iterator, max_batches)

        monkeypatch.setattr(predict_lib.PredictLoop, "__call__", counted_call)
        monkeypatch.setattr(predict_lib.PredictLoop, "run_batches", counted_run_batches)


def _predict(estimator, monkeypatch, fusion, input_fn, *, take=None, **kwargs):
    monkeypatch.setenv(step_fusion.ENVIRONMENT_VARIABLE, "1" if fusion else "0")
    calls = _Calls(monkeypatch)
    predictions = estimator.predict(input_fn, **kwargs)
    if take is not None:
        predictions = itertools.islice(predictions, take)
    return list(predictions), calls


def _assert_fused(on, batches=21):
    """The first batch ran alone (its one-batch step is traced already), the rest fused."""
    assert on.single == 1 and 1 <= on.fused < batches - 1, (on.single, on.fused)


def _assert_identical(fused, unfused):
    assert len(fused) == len(unfused)
    for index, (got, want) in enumerate(zip(fused, unfused)):
        assert sorted(got) == sorted(want)
        for key in want:
            np.testing.assert_array_equal(got[key], want[key], err_msg=f"{index} {key}")
            assert np.asarray(got[key]).dtype == np.asarray(want[key]).dtype


@pytest.mark.parametrize("input_fn, unfused_calls", [
    (finite_input_fn, 21),
    (unknown_length_input_fn, 22),  # the last call finds the data's end
])
def test_fused_predictions_are_the_unfused_ones_in_the_same_order(tmp_path, monkeypatch,
                                                                   input_fn, unfused_calls):
    estimator = trained(tmp_path)
    unfused, off = _predict(estimator, monkeypatch, False, input_fn)
    fused, on = _predict(estimator, monkeypatch, True, input_fn)
    assert len(unfused) == len(ROWS)
    _assert_identical(fused, unfused)
    assert (off.single, off.fused) == (unfused_calls, 0)
    _assert_fused(on)


def test_fused_predict_builds_model_fn_once_per_trace_as_unfused_does(tmp_path, monkeypatch):
    """The fused loop calls the replica step the first trace built (the hooks' and output
    specs' trace) instead of building model_fn again: a fused predict() calls model_fn in
    PREDICT mode as often as an unfused one (the build pass, then one trace), and predicts
    the same bytes."""
    calls = {}

    def counting_model_fn(features, labels, mode, params):
        calls[mode] = calls.get(mode, 0) + 1
        return model_fn(features, labels, mode, params)

    predictions = {}
    for fusion in (False, True):
        calls.clear()
        estimator = trained(tmp_path / str(fusion), model_fn=counting_model_fn)
        predictions[fusion], on = _predict(estimator, monkeypatch, fusion, finite_input_fn)
        predict_calls = calls.get(tpu.ModeKeys.PREDICT)
        if fusion:
            _assert_fused(on)
            assert predict_calls == unfused_predict_calls
        else:
            assert (on.single, on.fused) == (21, 0)
            unfused_predict_calls = predict_calls
    _assert_identical(predictions[True], predictions[False])


def test_the_first_batch_comes_from_the_one_batch_step_and_a_one_batch_predict_never_fuses(
        tmp_path, monkeypatch):
    """The first prediction needs no trace of the fused loop: the step traced for the hooks
    runs the first batch; a predict() of one batch never calls the fused loop."""
    estimator = trained(tmp_path)
    first, on = _predict(estimator, monkeypatch, True, finite_input_fn, take=1)
    assert (on.single, on.fused) == (1, 0)
    unfused, _ = _predict(estimator, monkeypatch, False, finite_input_fn, take=1)
    _assert_identical(first, unfused)

    def one_batch_input_fn(params):
        return tf.data.Dataset.from_tensor_slices(ROWS[:16]).batch(params["batch_size"])

    one, on = _predict(estimator, monkeypatch, True, one_batch_input_fn)
    assert len(one) == 16 and (on.single, on.fused) == (1, 0)


def test_whole_batches_keep_their_boundaries(tmp_path, monkeypatch):
    estimator = trained(tmp_path)
    unfused, _ = _predict(estimator, monkeypatch, False, unknown_length_input_fn,
                          yield_single_examples=False)
    fused, on = _predict(estimator, monkeypatch, True, unknown_length_input_fn,
                         yield_single_examples=False)
    assert [len(batch["classes"]) for batch in fused] == [16] * 20 + [8]
    _assert_identical(fused, unfused)
    _assert_fused(on)


def test_a_consumer_that_stops_early_on_infinite_data_gets_the_same_predictions(
        tmp_path, monkeypatch):
    """The fused buffer is bounded (predict_fusion.MAX_BATCHES): a generator read only partly
    on a `repeat()`ed input ends as the unfused one does."""
    estimator = trained(tmp_path)
    unfused, _ = _predict(estimator, monkeypatch, False, infinite_input_fn, take=500)
    fused, on = _predict(estimator, monkeypatch, True, infinite_input_fn, take=500)
    _assert_identical(fused, unfused)
    _assert_fused(on, batches=32)


class _EveryBatch(tf1.train.SessionRunHook):
    def __init__(self):
        self.before_run_calls = 0

    def before_run(self, run_context):
        self.before_run_calls += 1


class _BeginEndOnly(tf1.train.SessionRunHook):
    def __init__(self):
        self.calls = []

    def begin(self):
        self.calls.append("begin")

    def end(self, session):
        self.calls.append("end")


def test_a_hook_that_sees_every_batch_keeps_one_batch_per_call(tmp_path, monkeypatch, caplog):
    estimator = trained(tmp_path)
    predict_fusion._reasons_logged.clear()
    unfused_hook, fused_hook = _EveryBatch(), _EveryBatch()
    unfused, _ = _predict(estimator, monkeypatch, False, finite_input_fn, hooks=[unfused_hook])
    with caplog.at_level(logging.INFO, logger="estimator_bridge"):
        fused, on = _predict(estimator, monkeypatch, True, finite_input_fn, hooks=[fused_hook])
        _predict(estimator, monkeypatch, True, finite_input_fn, hooks=[_EveryBatch()])
    _assert_identical(fused, unfused)
    assert unfused_hook.before_run_calls == fused_hook.before_run_calls == 21
    assert (on.single, on.fused) == (21, 0)
    said = [record.getMessage() for record in caplog.records
            if "predict fusion off" in record.getMessage()]
    assert len(said) == 1 and "overrides before_run/after_run" in said[0]  # once for 2 calls


def test_a_hook_without_before_or_after_run_is_fused(tmp_path, monkeypatch):
    estimator = trained(tmp_path)
    unfused_hook, fused_hook = _BeginEndOnly(), _BeginEndOnly()
    unfused, _ = _predict(estimator, monkeypatch, False, finite_input_fn, hooks=[unfused_hook])
    fused, on = _predict(estimator, monkeypatch, True, finite_input_fn, hooks=[fused_hook])
    _assert_identical(fused, unfused)
    assert unfused_hook.calls == fused_hook.calls == ["begin", "end"]
    _assert_fused(on)


def test_the_batch_sizer_starts_with_one_batch_and_keeps_to_its_budgets():
    sizer = predict_fusion.BatchSizer()
    assert sizer.next_size() == 1
    assert sizer.next_size(batches_left=0) == 0
    sizer.after_call(1, seconds=0.001, nbytes=1 << 10)
    assert sizer.next_size() == predict_fusion.MAX_BATCHES
    assert sizer.next_size(batches_left=3) == 3
    sizer.after_call(10, seconds=10 * predict_fusion.CALL_SECONDS / 4, nbytes=10)
    assert sizer.next_size() == 4  # the time budget
    sizer.after_call(2, seconds=0.0, nbytes=2 * (predict_fusion.BUFFER_BYTES // 5))
    assert sizer.next_size() == 5  # the buffer budget
