"""The controller's rules between loops, driven by a real one-variable "model".

`run_loop` adds `num_steps` to a tf.Variable and returns that many losses (1/step), so every
number the controller decides (loop sizes, checkpoint steps, summary steps, stops) is exact.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.runtime import controller
from estimator_bridge.runtime.inputs import UNKNOWN_STEPS
from estimator_bridge.runtime.summaries import ScalarWriter
from tests.support.events import read_scalars


class CountingModel:
    """A global step in a tf.Variable; each loop's losses are 1/step for its steps."""

    def __init__(self, start=0, nan_at=None, data=None):
        self.step = tf.Variable(start, dtype=tf.int64)
        self.loop_sizes = []
        self.checkpoints = []
        self._nan_at = nan_at
        self._data = data  # batches left; OutOfRange when exhausted (None: infinite)

    def run_loop(self, num_steps):
        if self._data is not None:
            if self._data < num_steps:
                raise tf.errors.OutOfRangeError(None, None, "End of sequence")
            self._data -= num_steps
        first = int(self.step.numpy()) + 1
        self.step.assign_add(num_steps)
        self.loop_sizes.append(num_steps)
        steps = np.arange(first, first + num_steps)
        losses = (1.0 / steps).astype(np.float32)
        if self._nan_at is not None and first <= self._nan_at < first + num_steps:
            losses[self._nan_at - first] = np.nan
        return losses

    def read_step(self):
        return int(self.step.numpy())

    def save(self, step):
        self.checkpoints.append(step)
        return f"model.ckpt-{step}"


def plan(**changes):
    values = dict(start_step=0, last_step=25, steps_per_loop=10, data_steps=None,
                  save_checkpoints_steps=10, save_checkpoints_secs=None, save_summary_steps=10,
                  global_batch_size=None)
    values.update(changes)
    return controller.TrainPlan(**values)


def train(model, tmp_path, **changes):
    writer = ScalarWriter(str(tmp_path))
    result = controller.run_training(plan(start_step=model.read_step(), **changes),
                                     run_loop=model.run_loop, read_step=model.read_step,
                                     save_checkpoint=model.save, summary_writer=writer)
    writer.close()
    return result


def test_loops_are_cut_at_checkpoint_boundaries_and_the_last_step(tmp_path):
    model = CountingModel()
    result = train(model, tmp_path)
    assert model.loop_sizes == [10, 10, 5]
    assert model.checkpoints == [0, 10, 20, 25]
    assert (result.final_step, result.loops) == (25, 3)
    assert result.final_loss == pytest.approx(1 / 25)
    # TF1's SummarySaverHook: the first step, then every save_summary_steps.
    assert read_scalars(str(tmp_path), "loss") == pytest.approx({1: 1.0, 11: 1 / 11, 21: 1 / 21})


def test_checkpoint_steps_shorter_than_a_loop_cut_it(tmp_path):
    model = CountingModel()
    train(model, tmp_path, last_step=12, save_checkpoints_steps=5)
    assert model.loop_sizes == [5, 5, 2]
    assert model.checkpoints == [0, 5, 10, 12]


def test_without_checkpoint_cadence_nothing_is_saved(tmp_path):
    """TF1: neither save_checkpoints_steps nor _secs means no CheckpointSaverHook at all."""
    model = CountingModel()
    train(model, tmp_path, save_checkpoints_steps=None)
    assert model.loop_sizes == [10, 10, 5]
    assert model.checkpoints == []


def test_training_resumes_at_the_restored_step(tmp_path):
    model = CountingModel(start=20)
    train(model, tmp_path)
    assert model.loop_sizes == [5]
    assert model.checkpoints == [20, 25]


def test_a_nan_loss_stops_before_the_final_checkpoint(tmp_path):
    model = CountingModel(nan_at=13)
    with pytest.raises(controller.NanLossDuringTrainingError):
        train(model, tmp_path)
    assert model.loop_sizes == [10, 10]
    assert model.checkpoints == [0, 10]


def test_finite_data_ends_training_at_its_last_batch(tmp_path):
    model = CountingModel(data=7)
    result = train(model, tmp_path, last_step=None, data_steps=7)
    assert model.loop_sizes == [7]
    assert (result.final_step, model.checkpoints) == (7, [0, 7])


def test_unknown_data_length_runs_one_step_per_loop_until_out_of_range(tmp_path):
    model = CountingModel(data=3)
    result = train(model, tmp_path, last_step=None, data_steps=UNKNOWN_STEPS)
    assert model.loop_sizes == [1, 1, 1]
    assert (result.final_step, result.loops) == (3, 3)


def test_a_train_op_that_does_not_move_the_step_is_an_error(tmp_path):
    writer = ScalarWriter(str(tmp_path))
    with pytest.raises(RuntimeError, match="global_step stayed at 0"):
        controller.run_training(plan(), run_loop=lambda n: np.ones(n, np.float32),
                                read_step=lambda: 0, save_checkpoint=lambda step: None,
                                summary_writer=writer)


def test_evaluation_mean_is_over_the_steps_run():
    losses = iter([np.float32(3.0), np.float32(1.0)])
    mean, done = controller.run_evaluation(run_loop=lambda n: n * next(losses), num_steps=4,
                                           data_steps=None)
    assert (mean, done) == (np.float32(3.0), 4)  # one call of 4 steps: sum 12 over 4

    steps = iter([1.0, 2.0, 6.0])

    def one_step(num_steps):
        assert num_steps == 1
        try:
            return np.float32(next(steps))
        except StopIteration:
            raise tf.errors.OutOfRangeError(None, None, "End of sequence") from None

    mean, done = controller.run_evaluation(run_loop=one_step, num_steps=None,
                                           data_steps=UNKNOWN_STEPS)
    assert (mean, done) == (np.float32(3.0), 3)


def test_evaluation_without_steps_on_infinite_data_is_refused():
    with pytest.raises(ValueError, match="would never end: pass steps="):
        controller.run_evaluation(run_loop=lambda n: 0.0, num_steps=None, data_steps=None)


def test_evaluation_with_no_step_reports_nan():
    mean, done = controller.run_evaluation(run_loop=lambda n: 0.0, num_steps=None, data_steps=0)
    assert done == 0 and math.isnan(mean)


def test_prediction_stops_at_the_data_end_or_when_a_hook_asks():
    batches = iter(range(10))
    assert list(controller.run_prediction(run_batch=lambda: next(batches), data_steps=3,
                                          should_stop=lambda: False)) == [0, 1, 2]
    seen = []
    predicted = controller.run_prediction(run_batch=lambda: next(batches), data_steps=None,
                                          should_stop=lambda: len(seen) == 2)
    for batch in predicted:
        seen.append(batch)
    assert seen == [3, 4]


def test_evaluation_summaries_go_to_eval_or_eval_name(tmp_path):
    results = {"accuracy": np.float32(0.75), "loss": np.float32(0.5),
               "global_step": np.int64(40), "per_class": np.array([1.0, 2.0])}
    controller.write_evaluation_summaries(results, output_dir=str(tmp_path), name=None)
    controller.write_evaluation_summaries(results, output_dir=str(tmp_path), name="holdout")
    for directory in ("eval", "eval_holdout"):
        assert read_scalars(str(tmp_path / directory), "accuracy") == {40: 0.75}
        assert read_scalars(str(tmp_path / directory), "loss") == {40: 0.5}
        assert read_scalars(str(tmp_path / directory), "per_class") == {}  # not a scalar
