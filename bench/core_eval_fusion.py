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
import sys

from bench.core_fusion import REPO_ROOT
from bench.fusion_sides import IMPLS, cell, require_oracle, rotated_repeat, run_workload, summarize

WORKLOAD = REPO_ROOT / "bench" / "eval_fusion_workload.py"
RATIOS = ("fused_over_tf115", "fused_over_unfused", "fused_over_tf115_cpu")


def run_process(impl: str, short: int, long: int) -> dict:
    return run_workload(WORKLOAD, impl, ["--short", str(short), "--long", str(long)], {})


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
    require_oracle()
    started, runs = os.getloadavg(), []
    for repeat in range(repeats):
        by_impl = rotated_repeat(repeat, lambda impl: run_process(impl, short, long))
        runs.extend(mark_loss_mismatches(by_impl).values())
    summary = summarize([run for run in runs if "error" not in run], RATIOS)
    summary["errors"] = [run for run in runs if "error" in run]
    return {"summary": summary, "runs": runs, "repeats": repeats, "batches": [short, long],
            "load_average_at_start": started, "load_average_at_end": os.getloadavg()}


def render(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    summary = result["summary"]
    table = Table(title="evaluate() on data of unknown length: median steps/s (min-max); load "
                        f"{result['load_average_at_start'][0]:.1f} at start, "
                        f"{result['load_average_at_end'][0]:.1f} at end")
    for column in (*IMPLS, "fused/tf115", "fused/unfused", "fused/tf115 CPU"):
        table.add_column(column, justify="right")
    table.add_row(*(cell(summary[impl]["steps_per_sec"], "{:.0f}") for impl in IMPLS),
                  *(cell(summary[name], "{:.2f}") for name in RATIOS))
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
