"""global_step/sec and examples/sec at the steps TF 1.15's ExamplesPerSecondHook wrote them."""

from __future__ import annotations

import pytest

from estimator_bridge.config import parse_iterations_per_loop
from estimator_bridge.runtime.step_rate import StepRateReporter, tpu_estimator_cadence
from tests.estimator_bridge import tiny
from tests.support.events import read_tags

RATE_TAGS = ("global_step/sec", "examples/sec")


def rate_steps(model_dir):
    tags = read_tags(model_dir)
    return {tag: tags.get(tag, []) for tag in RATE_TAGS}


def test_one_step_per_loop_reports_where_tf1_did(tmp_path):
    # Measured on TF 1.15 (TPUEstimator use_tpu=False, iterations_per_loop=1,
    # log_step_count_steps=100, save_summary_steps=100, max_steps=250): both tags at 101, 201.
    tiny.make_estimator(tmp_path, iterations_per_loop=1).train(tiny.input_fn, max_steps=250)
    assert rate_steps(tmp_path) == {tag: [101, 201] for tag in RATE_TAGS}


def test_longer_loops_report_every_ceil_log_steps_over_loop_steps_at_loop_ends(tmp_path):
    # iterations_per_loop=3: every ceil(100 / 3) = 34 steps, asked at loop ends (3, 6, ...):
    # the first ask starts the clock, then 39 >= 3 + 34, 75 >= 39 + 34, 111 >= 75 + 34.
    # (TF 1.15's CPU path asks after every step: 35, 69, 103, measured.)
    tiny.make_estimator(tmp_path, iterations_per_loop=3).train(tiny.input_fn, max_steps=120)
    assert rate_steps(tmp_path) == {tag: [39, 75, 111] for tag in RATE_TAGS}


@pytest.mark.parametrize("run_config", [
    {"save_summary_steps": 0},  # TF 1.15: logged, not written (output_dir=None), measured
    {"log_step_count_steps": None},  # TF 1.15: no ExamplesPerSecondHook at all, measured
])
def test_no_rate_summaries_when_tf1_wrote_none(tmp_path, run_config):
    tiny.make_estimator(tmp_path, iterations_per_loop=1, **run_config).train(
        tiny.input_fn, max_steps=120)
    assert rate_steps(tmp_path) == {tag: [] for tag in RATE_TAGS}


def test_a_time_based_iterations_per_loop_reports_every_that_many_seconds():
    assert tpu_estimator_cadence(100, parse_iterations_per_loop("30s")) == (None, 30)
    assert tpu_estimator_cadence(100, parse_iterations_per_loop(7)) == (15, None)
    assert tpu_estimator_cadence(None, parse_iterations_per_loop(7)) == (None, None)


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class RecordingWriter:
    def __init__(self):
        self.written = []

    def scalars(self, step, values):
        self.written.append((step, values))


def test_the_rate_is_steps_since_the_last_report_over_the_time_since_then():
    clock, writer = FakeClock(), RecordingWriter()
    reporter = StepRateReporter(every_steps=10, global_batch_size=32, summary_writer=writer,
                                clock=clock)
    reporter.after_loop(5)  # starts the clock, reports nothing
    clock.now += 2.0
    reporter.after_loop(10)  # 10 < 5 + 10: not yet
    clock.now += 2.0
    reporter.after_loop(15)  # 10 steps in 4 s
    assert writer.written == [(15, {"global_step/sec": 2.5, "examples/sec": 80.0})]


def test_seconds_based_reports_fire_on_time_whatever_the_steps():
    clock, writer = FakeClock(), RecordingWriter()
    reporter = StepRateReporter(every_secs=30, summary_writer=writer, clock=clock)
    reporter.after_loop(100)
    clock.now += 29.0
    reporter.after_loop(200)
    clock.now += 1.0
    reporter.after_loop(300)
    assert writer.written == [(300, {"global_step/sec": 200 / 30.0})]
