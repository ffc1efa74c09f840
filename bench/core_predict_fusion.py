"""predict() side by side: the bridge fused, unfused, and TF 1.15, on finite and unknown-length input.

Usage: python -m bench.core_predict_fusion [--repeats 3]   (prints a table; JSON to stdout)

Each repeat runs the three implementations of bench/predict_fusion_workload.py in separate
processes for each input kind, order rotated from repeat to repeat; ratios are paired within a
repeat and reported as median (min-max). The predictions must agree before speeds are compared
(the workload prints digests): the classes with TF 1.15's, the probabilities' bytes fused with
unfused (TF 1.15's softmax may differ in the last bits); a run that differs is reported as an
error, not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from bench.core_fusion import REPO_ROOT, TF115_PYTHON, paired
from bench.core_summary import spread

WORKLOAD = REPO_ROOT / "bench" / "predict_fusion_workload.py"
IMPLS = ("bridge_fused", "bridge_unfused", "tf115")
INPUTS = ("finite", "unknown")


def run_process(impl: str, input_kind: str, short: int, long: int) -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    python = sys.executable
    if impl == "tf115":
        env.pop("PYTHONPATH", None)
        python = str(TF115_PYTHON)
    else:
        env["ESTIMATOR_BRIDGE_STEP_FUSION"] = "1" if impl == "bridge_fused" else "0"
    command = [python, str(WORKLOAD), "--impl", "tf115" if impl == "tf115" else "bridge",
               "--input", input_kind, "--short", str(short), "--long", str(long)]
    load_before = os.getloadavg()[0]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=env)
    loads = {"load_before": load_before, "load_after": os.getloadavg()[0]}
    if completed.returncode != 0:
        lines = [line for line in completed.stderr.splitlines() if line.strip()]
        return {"impl": impl, "input": input_kind, "error": lines[-1] if lines else "", **loads}
    return dict(json.loads(completed.stdout.strip().splitlines()[-1]), impl=impl, **loads)


def mark_prediction_mismatches(by_impl: dict) -> dict:
    """Marks (as errors, so they are not timed) the runs of one repeat whose predicted classes
    differ from TF 1.15's, and fused/unfused runs whose probabilities differ from each other;
    without TF 1.15's classes every run is marked."""
    oracle = by_impl.get("tf115", {}).get("classes_sha256")
    bridge = [by_impl.get(impl, {}) for impl in ("bridge_fused", "bridge_unfused")]
    same_probabilities = len({run.get("probabilities_sha256") for run in bridge}) == 1
    for impl, result in by_impl.items():
        if "error" in result:
            continue
        if oracle is None or result.get("classes_sha256") != oracle:
            result["error"] = "predicted classes differ from TF 1.15's (or TF 1.15 did not run)"
        elif impl != "tf115" and not same_probabilities:
            result["error"] = "probabilities differ between the fused and the unfused run"
    return by_impl


def summarize(runs) -> dict:
    timed = [run for run in runs if "error" not in run]
    summary = {}
    for input_kind in INPUTS:
        kind = [run for run in timed if run["input"] == input_kind]
        row = {impl: {key: spread([run.get(key) for run in kind if run["impl"] == impl])
                      for key in ("steps_per_sec", "cpu_us_per_step", "first_call_s",
                                  "peak_rss_mb")} for impl in IMPLS}
        row["fused_over_tf115"] = spread(paired(kind, "bridge_fused", "tf115"))
        row["fused_over_unfused"] = spread(paired(kind, "bridge_fused", "bridge_unfused"))
        row["fused_over_unfused_cpu"] = spread(
            paired(kind, "bridge_fused", "bridge_unfused", "cpu_us_per_step"))
        row["fused_over_tf115_cpu"] = spread(
            paired(kind, "bridge_fused", "tf115", "cpu_us_per_step"))
        summary[input_kind] = row
    summary["errors"] = [run for run in runs if "error" in run]
    return summary


def compare(repeats: int, short: int = 50, long: int = 2050) -> dict:
    if not TF115_PYTHON.exists():
        raise SystemExit(f"oracle A is missing at {TF115_PYTHON}; run `make oracle-a` first.")
    started, runs = os.getloadavg(), []
    for repeat in range(repeats):
        for input_kind in INPUTS:
            shift = repeat % len(IMPLS)
            by_impl = {}
            for impl in IMPLS[shift:] + IMPLS[:shift]:
                result = run_process(impl, input_kind, short, long)
                result["repeat"] = repeat
                by_impl[impl] = result
                print(json.dumps(result), file=sys.stderr)
            runs.extend(mark_prediction_mismatches(by_impl).values())
    return {"summary": summarize(runs), "runs": runs, "repeats": repeats,
            "batches": [short, long], "load_average_at_start": started,
            "load_average_at_end": os.getloadavg()}


def render(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    def cell(stats, pattern):
        if not stats or stats.get("median") is None:
            return "-"
        return (f"{pattern.format(stats['median'])} ({pattern.format(stats['min'])}-"
                f"{pattern.format(stats['max'])})")

    summary = result["summary"]
    table = Table(title="predict(), batches/s: median (min-max); load "
                        f"{result['load_average_at_start'][0]:.1f} at start, "
                        f"{result['load_average_at_end'][0]:.1f} at end")
    for column in ("input", *IMPLS, "fused/tf115", "fused/unfused", "fused/unfused CPU",
                   "fused/tf115 CPU"):
        table.add_column(column, justify="right")
    for input_kind in INPUTS:
        row = summary[input_kind]
        table.add_row(input_kind, *(cell(row[impl]["steps_per_sec"], "{:.0f}") for impl in IMPLS),
                      cell(row["fused_over_tf115"], "{:.2f}"),
                      cell(row["fused_over_unfused"], "{:.2f}"),
                      cell(row["fused_over_unfused_cpu"], "{:.2f}"),
                      cell(row["fused_over_tf115_cpu"], "{:.2f}"))
    Console(width=200).print(table)
    for run in summary["errors"]:
        print(f"error ({run['impl']}, {run['input']}, repeat {run['repeat']}): {run['error']}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--short", type=int, default=50)
    parser.add_argument("--long", type=int, default=2050)
    args = parser.parse_args(argv)
    result = compare(args.repeats, args.short, args.long)
    print(json.dumps(result["summary"], indent=2))
    render(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
