"""Bridge throughput against its baselines, run side by side; writes bench/results/core.json.

Usage: python -m bench.core_bench [--repeats 3] [--steps 3000] [--quick]

For every (replicas, steps per loop) cell it runs each implementation in its own process,
interleaving implementations within each repeat so that machine load hits all of them alike,
and reports the median steps/s, first-call (tracing) time and peak RSS, plus ratios:
  bridge / tf115      target >= 2x at 100 steps per loop (TF 1.15 TPUEstimator(use_tpu=False));
  bridge / tf2_loop   target >= 0.95 at 100 steps per loop (hand-written TF2 custom loop);
  bridge / keras_fit  for information (Keras 3 fit with steps_per_execution).
TF 1.15 has no replicas on CPU, so it only appears in the 1-replica rows.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

REPO_ROOT = Path(__file__).resolve().parents[1]
RESULTS_FILE = REPO_ROOT / "bench" / "results" / "core.json"
TF115_PYTHON = REPO_ROOT / ".oracle" / "tf115" / "bin" / "python"
CURRENT_TF_IMPLS = ("bridge", "tf2_loop", "keras_fit")


def run_workload(impl: str, replicas: int, steps_per_loop: int, steps: int) -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    if impl == "tf115":
        if not TF115_PYTHON.exists():
            raise SystemExit(f"oracle A is missing at {TF115_PYTHON}; run `make oracle-a` first.")
        env.pop("PYTHONPATH", None)
        command = [str(TF115_PYTHON), str(REPO_ROOT / "bench" / "tf115_workload.py")]
    else:
        command = [sys.executable, "-m", "bench.core_workloads", impl, "--replicas", str(replicas)]
    command += ["--steps-per-loop", str(steps_per_loop), "--steps", str(steps)]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=env)
    if completed.returncode != 0:
        return {"impl": impl, "error": completed.stderr.strip().splitlines()[-1:]}
    return json.loads(completed.stdout.strip().splitlines()[-1])


def median_of(runs: list[dict], key: str):
    values = [run[key] for run in runs if run.get(key) is not None]
    return statistics.median(values) if values else None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--quick", action="store_true", help="1 repeat, 1 replica only")
    args = parser.parse_args(argv)
    replica_counts = (1,) if args.quick else (1, 8)
    repeats = 1 if args.quick else args.repeats
    cells = [(replicas, steps_per_loop) for replicas in replica_counts for steps_per_loop in (1, 100)]

    raw_runs = []
    for repeat in range(repeats):
        for replicas, steps_per_loop in cells:
            # 8 replicas share 2 cores: fewer steps keep the run short; steps/s is still steady state.
            steps = args.steps if replicas == 1 else max(400, args.steps // 6)
            impls = CURRENT_TF_IMPLS + (("tf115",) if replicas == 1 else ())
            for impl in impls:
                result = run_workload(impl, replicas, steps_per_loop, steps)
                result.update(repeat=repeat, replicas=replicas, steps_per_loop=steps_per_loop)
                raw_runs.append(result)
                print(json.dumps(result), file=sys.stderr)

    summary = []
    for replicas, steps_per_loop in cells:
        row = {"replicas": replicas, "steps_per_loop": steps_per_loop}
        for impl in CURRENT_TF_IMPLS + ("tf115",):
            runs = [r for r in raw_runs if r["impl"] == impl and r["replicas"] == replicas
                    and r["steps_per_loop"] == steps_per_loop and "error" not in r]
            row[impl] = {key: median_of(runs, key) for key in ("steps_per_sec", "first_call_s", "peak_rss_mb")}
            errors = [r["error"] for r in raw_runs if r["impl"] == impl and r["replicas"] == replicas
                      and r["steps_per_loop"] == steps_per_loop and "error" in r]
            if errors:
                row[impl]["errors"] = errors
        bridge_rate = row["bridge"]["steps_per_sec"]
        for baseline in ("tf115", "tf2_loop", "keras_fit"):
            baseline_rate = row[baseline]["steps_per_sec"]
            row[f"bridge_over_{baseline}"] = (bridge_rate / baseline_rate
                                              if bridge_rate and baseline_rate else None)
        summary.append(row)

    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({
        "benchmark": "core", "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "repeats": repeats, "summary": summary, "runs": raw_runs,
    }, indent=2) + "\n")
    render(summary)
    print(f"results written to {RESULTS_FILE.relative_to(REPO_ROOT)}")
    return 0


def fmt(value, pattern="{:.0f}"):
    return "-" if value is None else pattern.format(value)


def render(summary: list[dict]) -> None:
    table = Table(title="bridge vs baselines (median steps/s; first call s; peak RSS MB)")
    for column in ("replicas", "steps/loop", "bridge", "tf2_loop", "keras_fit", "tf115",
                   "bridge/tf115", "bridge/tf2_loop", "bridge/keras_fit", "first call bridge",
                   "peak RSS bridge"):
        table.add_column(column, justify="right")
    for row in summary:
        table.add_row(
            str(row["replicas"]), str(row["steps_per_loop"]),
            *(fmt(row[impl]["steps_per_sec"]) for impl in ("bridge", "tf2_loop", "keras_fit", "tf115")),
            *(fmt(row[f"bridge_over_{b}"], "{:.2f}x") for b in ("tf115", "tf2_loop", "keras_fit")),
            fmt(row["bridge"]["first_call_s"], "{:.2f}"), fmt(row["bridge"]["peak_rss_mb"]),
        )
    Console(width=200).print(table)


if __name__ == "__main__":
    sys.exit(main())
