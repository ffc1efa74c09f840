"""evaluate() on data of unknown length, side by side: the bridge fused, unfused, and TF 1.15.

Usage: python -m bench.core_eval_fusion [--repeats 3]   (prints a table; JSON to stdout)

Each repeat runs the three implementations of bench/eval_fusion_workload.py in separate
processes, order rotated from repeat to repeat; ratios are paired within a repeat and reported as
median (min-max). The three evaluation losses must agree (the workload prints them): a run whose
loss differs from TF 1.15's is reported as an error, not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from bench.core_fusion import REPO_ROOT, TF115_PYTHON, paired
from bench.core_summary import spread

WORKLOAD = REPO_ROOT / "bench" / "eval_fusion_workload.py"
IMPLS = ("bridge_fused", "bridge_unfused", "tf115")


def run_process(impl: str, short: int, long: int) -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    python = sys.executable
    if impl == "tf115":
        env.pop("PYTHONPATH", None)
        python = str(TF115_PYTHON)
    else:
        env["ESTIMATOR_BRIDGE_STEP_FUSION"] = "1" if impl == "bridge_fused" else "0"
    command = [python, str(WORKLOAD), "--impl", "tf115" if impl == "tf115" else "bridge",
               "--short", str(short), "--long", str(long)]
    load_before = os.getloadavg()[0]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=env)
    loads = {"load_before": load_before, "load_after": os.getloadavg()[0]}
    if completed.returncode != 0:
        lines = [line for line in completed.stderr.splitlines() if line.strip()]
        return {"impl": impl, "error": lines[-1] if lines else "", **loads}
    return dict(json.loads(completed.stdout.strip().splitlines()[-1]), impl=impl, **loads)


def mark_loss_mismatches(by_impl: dict) -> dict:
    """Marks (as errors, so they are not timed) the runs of one repeat whose evaluation loss
    differs from TF 1.15's; without a TF 1.15 loss every run is marked."""
    oracle_loss = by_impl.get("tf115", {}).get("eval_loss_long")
    for result in by_impl.values():
        if "error" not in result and (oracle_loss is None
                                      or result["eval_loss_long"] != oracle_loss):
            result["error"] = (f"evaluation loss {result.get('eval_loss_long')!r} differs from "
                               f"TF 1.15's {oracle_loss!r}")
    return by_impl


def compare(repeats: int, short: int = 50, long: int = 2050) -> dict:
    if not TF115_PYTHON.exists():
        raise SystemExit(f"oracle A is missing at {TF115_PYTHON}; run `make oracle-a` first.")
    started, runs = os.getloadavg(), []
    for repeat in range(repeats):
        shift = repeat % len(IMPLS)
        by_impl = {}
        for impl in IMPLS[shift:] + IMPLS[:shift]:
            result = run_process(impl, short, long)
            result["repeat"] = repeat
            by_impl[impl] = result
            print(json.dumps(result), file=sys.stderr)
        runs.extend(mark_loss_mismatches(by_impl).values())
    timed = [run for run in runs if "error" not in run]
    summary = {impl: {key: spread([run.get(key) for run in timed if run["impl"] == impl])
                      for key in ("steps_per_sec", "cpu_us_per_step", "first_call_s",
                                  "peak_rss_mb")} for impl in IMPLS}
    summary["fused_over_tf115"] = spread(paired(timed, "bridge_fused", "tf115"))
    summary["fused_over_unfused"] = spread(paired(timed, "bridge_fused", "bridge_unfused"))
    summary["fused_over_tf115_cpu"] = spread(
        paired(timed, "bridge_fused", "tf115", "cpu_us_per_step"))
    summary["errors"] = [run for run in runs if "error" in run]
    return {"summary": summary, "runs": runs, "repeats": repeats, "batches": [short, long],
            "load_average_at_start": started, "load_average_at_end": os.getloadavg()}


def render(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    def cell(stats, pattern):
        if not stats or stats.get("median") is None:
            return "-"
        return (f"{pattern.format(stats['median'])} ({pattern.format(stats['min'])}-"
                f"{pattern.format(stats['max'])})")

    summary = result["summary"]
    table = Table(title="evaluate() on data of unknown length: median steps/s (min-max); load "
                        f"{result['load_average_at_start'][0]:.1f} at start, "
                        f"{result['load_average_at_end'][0]:.1f} at end")
    for column in (*IMPLS, "fused/tf115", "fused/unfused", "fused/tf115 CPU"):
        table.add_column(column, justify="right")
    table.add_row(*(cell(summary[impl]["steps_per_sec"], "{:.0f}") for impl in IMPLS),
                  cell(summary["fused_over_tf115"], "{:.2f}"),
                  cell(summary["fused_over_unfused"], "{:.2f}"),
                  cell(summary["fused_over_tf115_cpu"], "{:.2f}"))
    Console(width=200).print(table)
    for run in summary["errors"]:
        print(f"error ({run['impl']}, repeat {run['repeat']}): {run['error']}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    result = compare(args.repeats)
    print(json.dumps(result["summary"], indent=2))
    render(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
