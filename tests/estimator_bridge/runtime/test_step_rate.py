"""global_step/sec and examples/sec at the steps TF 1.15's ExamplesPerSecondHook wrote them.

Expected steps come from `goldens/summary_cadence_tf115.json` (goldens/summary_cadence_recorder.py,
recorded from two identical TF 1.15 runs by `python -m tests.estimator_bridge.goldens.record`):
`cpu_path` is TPUEstimator(use_tpu=False), `tpu_path_rates` TF 1.15's own hook driven one
session.run per loop as its TPU path drives it.

Known difference: with iterations_per_loop > 1 and use_tpu=False, TF 1.15 ran one step per
session.run and its hook fired at 1 + k * ceil(100 / iterations_per_loop) (3-step loops: 35, 69,
103). The bridge runs iterations_per_loop steps per loop on every path and sees the step count
only at loop ends, as TF 1.15's TPU path did: 39, 75, 111 there and here. A rate "at step 35"
inside a loop ending at 36 would need the wall time at step 35, which a loop compiled into one
tf.function does not have.
"""

from __future__ import annotations

import json

import pytest

from estimator_bridge.config import parse_iterations_per_loop
from estimator_bridge.runtime.step_rate import StepRateReporter, tpu_estimator_cadence
from tests.estimator_bridge import tiny
from tests.support.events import read_tags
from tests.support.oracles import REPO_ROOT, oracle_python, run_json

RATE_TAGS = ("global_step/sec", "examples/sec")
GOLDENS = REPO_ROOT / "tests" / "estimator_bridge" / "goldens"
GOLDEN = json.loads((GOLDENS / "summary_cadence_tf115.json").read_text())


def rate_steps(model_dir):
    tags = read_tags(model_dir)
    return {tag: tags.get(tag, []) for tag in RATE_TAGS}


def expected(path, run):
    steps = GOLDEN[path][run]["train"] if path == "cpu_path" else GOLDEN[path][run]
    return {tag: steps.get(tag, []) for tag in RATE_TAGS}


def test_one_step_per_loop_reports_where_tf1_did_on_both_paths(tmp_path):
    # iterations_per_loop=1, log_step_count_steps=100, max_steps=250: [101, 201].
    tiny.make_estimator(tmp_path, iterations_per_loop=1).train(tiny.input_fn, max_steps=250)
    assert rate_steps(tmp_path) == expected("cpu_path", "one_step_loops") == \
        expected("tpu_path_rates", "one_step_loops")


def test_longer_loops_report_at_loop_ends_as_tf1s_tpu_path_did(tmp_path):
    # iterations_per_loop=3: every ceil(100 / 3) = 34 steps, asked at loop ends (3, 6, ...):
    # the first ask starts the clock, then 39 >= 3 + 34, 75 >= 39 + 34, 111 >= 75 + 34.
    tiny.make_estimator(tmp_path, iterations_per_loop=3).train(tiny.input_fn, max_steps=120)
    assert rate_steps(tmp_path) == expected("tpu_path_rates", "three_step_loops")
    # The known difference (module docstring): TF 1.15's CPU path asked after every step.
    assert expected("cpu_path", "three_step_loops") == {tag: [35, 69, 103] for tag in RATE_TAGS}


@pytest.mark.parametrize("run, run_config", [
    ("no_summary_steps", {"save_summary_steps": 0}),  # TF 1.15: logged, not written
    ("no_step_logging", {"log_step_count_steps": None}),  # TF 1.15: no rate hook at all
])
def test_no_rate_summaries_when_tf1_wrote_none(tmp_path, run, run_config):
    tiny.make_estimator(tmp_path, iterations_per_loop=1, **run_config).train(
        tiny.input_fn, max_steps=120)
    assert rate_steps(tmp_path) == expected("cpu_path", run) == {tag: [] for tag in RATE_TAGS}


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


@pytest.mark.oracle
def test_golden_is_what_tf_1_15_records_now():
    live = run_json(oracle_python("tf115"), GOLDENS / "summary_cadence_recorder.py", cwd=REPO_ROOT)
    assert live["tensorflow"] == "1.15.0"
    assert live == GOLDEN, (
        "oracle A no longer records goldens/summary_cadence_tf115.json; if the recorder changed "
        "on purpose, re-record it: python -m tests.estimator_bridge.goldens.record summary_cadence")
