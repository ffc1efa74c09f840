"""The step-fusion comparison's schedule and paired ratios (bench/core_fusion.py)."""

from bench import core_fusion


def run(impl, repeat, steps_per_sec, cpu_us, program="tpu_estimator"):
    return {"impl": impl, "program": program, "repeat": repeat, "steps_per_sec": steps_per_sec,
            "cpu_us_per_step": cpu_us, "first_call_s": 1.0, "peak_rss_mb": 700.0}


def test_every_repeat_runs_each_implementation_of_each_program_in_rotated_order():
    order = list(core_fusion.schedule(3))
    assert len(order) == 3 * len(core_fusion.PROGRAMS) * len(core_fusion.IMPLS)
    firsts = [impl for repeat, program, impl in order if program == "estimator"][::3]
    assert firsts == list(core_fusion.IMPLS)  # each implementation goes first once


def test_ratios_pair_runs_of_one_repeat_and_cpu_ratios_say_faster_above_one():
    runs = [run("bridge_fused", 0, 300.0, 500.0), run("bridge_unfused", 0, 100.0, 1500.0),
            run("tf115", 0, 150.0, 1000.0),
            run("bridge_fused", 1, 30.0, 600.0), run("tf115", 1, 15.0, 1200.0)]
    row = core_fusion.summarize(runs)[0]
    assert row["fused_over_tf115"]["median"] == 2.0  # a slow repeat (load) cancels in the pair
    assert row["fused_over_unfused"] == {"median": 3.0, "min": 3.0, "max": 3.0, "n": 1}
    assert row["fused_over_tf115_cpu"]["median"] == 2.0
    assert row["fused_over_unfused_cpu"]["median"] == 3.0
