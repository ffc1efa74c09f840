"""The core benchmark's summary: medians with spread, paired per-repeat ratios, rotation."""

import pytest

from bench import core_bench
from bench.core_summary import paired_ratios, spread, summarize


def run(impl, repeat, steps_per_sec, replicas=1, steps_per_loop=100):
    return {"impl": impl, "repeat": repeat, "replicas": replicas,
            "steps_per_loop": steps_per_loop, "steps_per_sec": steps_per_sec,
            "first_call_s": 1.0, "peak_rss_mb": 700.0}


def test_spread_reports_median_min_max_and_ignores_missing_values():
    assert spread([3.0, None, 1.0, 2.0]) == {"median": 2.0, "min": 1.0, "max": 3.0, "n": 3}
    assert spread([None]) == {"median": None, "min": None, "max": None, "n": 0}


def test_ratios_pair_runs_of_the_same_repeat():
    # A load spike in repeat 1 slows both implementations; the paired ratio stays 2.
    runs = [run("bridge", 0, 200.0), run("tf2_loop", 0, 100.0),
            run("bridge", 1, 20.0), run("tf2_loop", 1, 10.0),
            run("bridge", 2, 200.0)]  # no tf2_loop run in repeat 2: not paired
    assert paired_ratios(runs, "bridge", "tf2_loop") == [2.0, 2.0]


def test_summary_keeps_errors_and_leaves_ratios_empty_for_failed_baselines():
    runs = [run("bridge", 0, 150.0, replicas=8),
            {"impl": "keras_fit", "repeat": 0, "replicas": 8, "steps_per_loop": 100,
             "error": {"last_line": "boom"}}]
    (row,) = summarize(runs, [(8, 100)])
    assert row["bridge"]["steps_per_sec"]["median"] == 150.0
    assert row["keras_fit"]["errors"] == [{"last_line": "boom"}]
    assert row["bridge_over_keras_fit"]["n"] == 0


def test_schedule_rotates_the_implementation_order_between_repeats():
    order = [(repeat, impl) for repeat, _, _, impl in core_bench.schedule([(8, 100)], 3)]
    # 8 replicas: bridge, tf2_loop, keras_fit and the in-process alternation (no TF 1.15).
    assert len(order) == 3 * 4
    firsts = [impl for repeat, impl in order if (repeat, impl) == order[4 * repeat]]
    assert firsts == ["bridge", "tf2_loop", "keras_fit"]


def test_known_keras_failure_is_named():
    failure = core_bench.describe_failure(
        "keras_fit", "...\n  (7) INVALID_ARGUMENT:  You must feed a value for placeholder "
        "tensor 'while/cond/Placeholder_4'\n0 derived errors ignored.\n")
    assert failure["last_line"] == "0 derived errors ignored."
    assert "keras-team/keras#19246" in failure["known_issue"]
    assert "known_issue" not in core_bench.describe_failure("bridge", "Traceback\nValueError: x")


def test_in_process_ratios_are_summarized_per_cell_over_repeats():
    in_process = [{"replicas": 1, "steps_per_loop": 100, "repeat": repeat,
                   "bridge_over_tf2_loop": {"median": ratio}}
                  for repeat, ratio in enumerate([0.98, 1.02, 1.00])]
    in_process.append({"replicas": 8, "steps_per_loop": 100, "repeat": 0, "error": {}})
    one, eight = summarize([], [(1, 100), (8, 100)], in_process)
    assert one["bridge_over_tf2_loop_in_process"] == {"median": 1.00, "min": 0.98, "max": 1.02,
                                                      "n": 3}
    assert eight["bridge_over_tf2_loop_in_process"]["n"] == 0


def test_the_tf115_oracle_is_found_where_verify_finds_it(tmp_path, monkeypatch):
    """Issue 29: `make bench` looked only in the checkout's .oracle/ and stopped with "run `make
    oracle-a`" while verify's own lookup ($ESTIMATOR_BRIDGE_ORACLES, the checkout, the cache folder)
    held one. Both now ask verify/oracles.py."""
    from verify import oracles

    built = oracles.locate("tf115")
    assert built is not None, "the tf115 oracle is not built: make oracles"
    (tmp_path / "tf115").symlink_to(built.parents[1])
    monkeypatch.setenv(oracles.ORACLES_ENV_VARIABLE, str(tmp_path))
    assert core_bench.tf115_python() == tmp_path / "tf115" / "bin" / "python" == oracles.locate("tf115")
    monkeypatch.setattr(oracles, "candidate_roots", lambda name: [tmp_path / "nowhere" / name])
    with pytest.raises(SystemExit, match="python -m verify.oracles ensure tf115"):
        core_bench.tf115_python()
