"""The step-fusion comparison (bench/core_fusion.py): its schedule, paired ratios, quiet repeats,
the loss check between fused and unfused calls, and its long-lived bridge workers."""

import pytest

from bench import core_fusion, machine_load


def run(impl, repeat, steps_per_sec, cpu_us, program="tpu_estimator", other_cores=0.0,
        **extra):
    return {"impl": impl, "program": program, "repeat": repeat, "steps_per_sec": steps_per_sec,
            "cpu_us_per_step": cpu_us, "peak_rss_mb": 700.0, "call_s": 2.0,
            "other_cores": other_cores, **extra}


def test_every_repeat_runs_each_implementation_of_each_program_in_rotated_order():
    order = list(core_fusion.schedule(3))
    assert len(order) == 3 * len(core_fusion.PROGRAMS) * len(core_fusion.IMPLS)
    firsts = [impl for repeat, program, impl in order if program == "estimator"][::3]
    assert firsts == list(core_fusion.IMPLS)  # each implementation goes first once


def test_ratios_pair_calls_of_one_repeat_and_cpu_ratios_say_faster_above_one():
    runs = [run("bridge_fused", 0, 300.0, 500.0), run("bridge_unfused", 0, 100.0, 1500.0),
            run("tf115", 0, 150.0, 1000.0),
            run("bridge_fused", 1, 30.0, 600.0), run("tf115", 1, 15.0, 1200.0)]
    row = core_fusion.summarize_program(runs, [run("tf115", None, 1.0, 1.0, first_call_s=0.5)])
    assert row["fused_over_tf115"]["median"] == 2.0  # a slow repeat (load) cancels in the pair
    assert row["fused_over_unfused"] == {"median": 3.0, "min": 3.0, "max": 3.0, "n": 1}
    assert row["fused_over_tf115_cpu"]["median"] == 2.0
    assert row["fused_over_unfused_cpu"]["median"] == 3.0
    assert row["tf115"]["first_call_s"] == 0.5 and row["bridge_fused"]["first_call_s"] is None
    assert [r["fused_over_tf115"] for r in row["per_repeat"]] == [2.0, 2.0]
    assert row["per_repeat"][1]["fused_over_unfused"] is None  # no unfused call in repeat 1


def test_only_repeats_whose_every_call_ran_beside_little_other_work_count_as_quiet():
    busy = core_fusion.QUIET_OTHER_CORES + 0.5
    runs = [run("bridge_fused", 0, 300.0, 500.0), run("bridge_unfused", 0, 100.0, 1500.0),
            run("tf115", 0, 150.0, 1000.0),
            run("bridge_fused", 1, 90.0, 500.0), run("bridge_unfused", 1, 90.0, 1500.0),
            run("tf115", 1, 150.0, 1000.0, other_cores=busy)]
    row = core_fusion.summarize_program(runs, [])
    assert row["quiet_repeats"] == [0]
    assert row["fused_over_tf115_quiet"] == {"median": 2.0, "min": 2.0, "max": 2.0, "n": 1}
    assert row["fused_over_tf115"]["n"] == 2
    assert row["per_repeat"][1]["max_other_cores"] == busy


def test_fused_and_unfused_calls_that_end_with_different_losses_are_errors_not_timings():
    by_impl = {"bridge_fused": run("bridge_fused", 0, 300.0, 500.0, final_loss=0.25),
               "bridge_unfused": run("bridge_unfused", 0, 100.0, 1500.0, final_loss=0.5),
               "tf115": run("tf115", 0, 150.0, 1000.0)}
    marked = core_fusion.mark_loss_mismatches(by_impl)
    assert "0.25" in marked["bridge_fused"]["error"] and "error" in marked["bridge_unfused"]
    row = core_fusion.summarize_program(list(marked.values()), [])
    assert row["fused_over_tf115"]["n"] == 0 and len(row["bridge_fused"]["errors"]) == 1
    same = {"bridge_fused": run("bridge_fused", 0, 300.0, 500.0, final_loss=0.25),
            "bridge_unfused": run("bridge_unfused", 0, 100.0, 1500.0, final_loss=0.25)}
    assert not any("error" in result for result in
                   core_fusion.mark_loss_mismatches(same).values())


def test_other_work_is_the_machine_busy_time_beyond_the_timed_process(tmp_path):
    stat = tmp_path / "stat"
    ticks = machine_load._TICKS_PER_SECOND  # noqa: SLF001
    # user nice system idle iowait irq softirq steal
    stat.write_text(f"cpu  {3 * ticks} 0 {ticks} {50 * ticks} {ticks} 0 0 0 0 0\ncpu0 1 2 3\n")
    assert machine_load.busy_cpu_seconds(str(stat)) == 4.0
    assert machine_load.busy_cpu_seconds(str(tmp_path / "missing")) is None
    assert machine_load.other_cores(10.0, 13.0, own_cpu_seconds=1.0, wall_seconds=2.0) == 1.0
    assert machine_load.other_cores(10.0, 10.5, own_cpu_seconds=1.0, wall_seconds=2.0) == 0.0
    assert machine_load.other_cores(None, 10.5, own_cpu_seconds=1.0, wall_seconds=2.0) is None


def test_a_bridge_worker_continues_training_call_after_call_fused_as_unfused(tmp_path):
    """Two long-lived workers (fusion on and off) answer two train() calls each: every call
    continues from the last step, is timed after its warm-up, and both end with one loss."""
    records = {}
    for impl in ("bridge_fused", "bridge_unfused"):
        worker = core_fusion.Worker(impl, "tpu_estimator", warmup_steps=100, log_dir=tmp_path)
        try:
            records[impl] = [worker.call(250), worker.call(250)]
        finally:
            worker.close()
    for impl, (first, second) in records.items():
        assert "error" not in first and "error" not in second, (first, second)
        assert (first["start_step"], second["start_step"]) == (0, 250)
        assert second["timed_steps"] >= 100 and second["steps_per_sec"] > 0
        assert second["cpu_us_per_step"] > 0 and second["peak_rss_mb"] > 0
        assert second["other_cores"] is None or second["other_cores"] >= 0
    assert records["bridge_fused"][1]["final_loss"] == pytest.approx(
        records["bridge_unfused"][1]["final_loss"], rel=0, abs=0)
