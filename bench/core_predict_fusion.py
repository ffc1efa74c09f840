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
import sys

from bench.core_fusion import REPO_ROOT
from bench.fusion_sides import IMPLS, RATIOS, cell, require_oracle, rotated_repeat, run_workload
from bench.fusion_sides import summarize as summarize_impls

WORKLOAD = REPO_ROOT / "bench" / "predict_fusion_workload.py"
INPUTS = ("finite", "unknown")


def run_process(impl: str, input_kind: str, short: int, long: int) -> dict:
    return run_workload(WORKLOAD, impl, ["--input", input_kind, "--short", str(short), "--long", str(long)],
                        {"input": input_kind})


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
    summary = {input_kind: summarize_impls([run for run in timed if run["input"] == input_kind])
               for input_kind in INPUTS}
    summary["errors"] = [run for run in runs if "error" in run]
    return summary


def compare(repeats: int, short: int = 50, long: int = 2050) -> dict:
    require_oracle()
    started, runs = os.getloadavg(), []
    for repeat in range(repeats):
        for input_kind in INPUTS:
            by_impl = rotated_repeat(repeat, lambda impl: run_process(impl, input_kind, short, long))
            runs.extend(mark_prediction_mismatches(by_impl).values())
    return {"summary": summarize(runs), "runs": runs, "repeats": repeats,
            "batches": [short, long], "load_average_at_start": started,
            "load_average_at_end": os.getloadavg()}


def render(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

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
                      *(cell(row[name], "{:.2f}") for name in RATIOS))
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
