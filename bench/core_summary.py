"""Summaries of core benchmark runs: medians with their spread, and paired ratios.

Pure functions over the run records `core_bench` collects, kept apart from the code that
starts processes so that they can be checked on their own:
  separate runs   one dict per process: impl, replicas, steps_per_loop, repeat, steps_per_sec,
                  first_call_s, peak_rss_mb, or error;
  in-process runs one dict per `core_paired` process: replicas, steps_per_loop, repeat and
                  `bridge_over_tf2_loop` (the median over its rounds of the loop-by-loop ratio).
"""

from __future__ import annotations

import statistics

IMPLS = ("bridge", "tf2_loop", "keras_fit", "tf115")
BASELINES = ("tf115", "tf2_loop", "keras_fit")
MEASURES = ("steps_per_sec", "first_call_s", "peak_rss_mb")


def spread(values) -> dict:
    """{'median', 'min', 'max', 'n'} of the values that are not None (all None when none are)."""
    present = [value for value in values if value is not None]
    if not present:
        return {"median": None, "min": None, "max": None, "n": 0}
    return {"median": statistics.median(present), "min": min(present), "max": max(present),
            "n": len(present)}


def paired_ratios(runs: list[dict], numerator: str, denominator: str) -> list[float]:
    """numerator/denominator steps/s for every repeat where both ran (same cell, same repeat)."""
    by_repeat = {}
    for run in runs:
        if run.get("steps_per_sec"):
            by_repeat.setdefault(run["repeat"], {})[run["impl"]] = run["steps_per_sec"]
    return [rates[numerator] / rates[denominator] for _, rates in sorted(by_repeat.items())
            if numerator in rates and denominator in rates]


def summarize(raw_runs: list[dict], cells, in_process_runs=()) -> list[dict]:
    """One row per (replicas, steps_per_loop) cell: per-impl spreads, errors, paired ratios.

    `bridge_over_tf2_loop_in_process` is the spread over repeats of the in-process runs'
    median ratios (n=0 when none ran for the cell).
    """
    summary = []
    for replicas, steps_per_loop in cells:
        cell_runs = [run for run in raw_runs if run["replicas"] == replicas
                     and run["steps_per_loop"] == steps_per_loop]
        row = {"replicas": replicas, "steps_per_loop": steps_per_loop}
        for impl in IMPLS:
            runs = [run for run in cell_runs if run["impl"] == impl and "error" not in run]
            row[impl] = {key: spread([run.get(key) for run in runs]) for key in MEASURES}
            errors = [run["error"] for run in cell_runs if run["impl"] == impl and "error" in run]
            if errors:
                row[impl]["errors"] = errors
        for baseline in BASELINES:
            row[f"bridge_over_{baseline}"] = spread(paired_ratios(cell_runs, "bridge", baseline))
        row["bridge_over_tf2_loop_in_process"] = spread([
            run["bridge_over_tf2_loop"]["median"] for run in in_process_runs
            if run["replicas"] == replicas and run["steps_per_loop"] == steps_per_loop
            and "error" not in run])
        summary.append(row)
    return summary
