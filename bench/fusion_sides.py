"""The bridge fused, unfused and TF 1.15, each in its own process: what the fusion benchmarks share.

bench/core_eval_fusion.py and bench/core_predict_fusion.py time one workload script three ways,
rotate the order from repeat to repeat (a slow spell of the machine then falls on each in turn),
and summarise each implementation and the paired ratios as median (min-max).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

from bench.core_fusion import REPO_ROOT, TF115_PYTHON, paired
from bench.core_summary import spread

IMPLS = ("bridge_fused", "bridge_unfused", "tf115")
MEASURES = ("steps_per_sec", "cpu_us_per_step", "first_call_s", "peak_rss_mb")
RATIOS = {  # name -> (numerator, denominator, measure)
    "fused_over_tf115": ("bridge_fused", "tf115", "steps_per_sec"),
    "fused_over_unfused": ("bridge_fused", "bridge_unfused", "steps_per_sec"),
    "fused_over_unfused_cpu": ("bridge_fused", "bridge_unfused", "cpu_us_per_step"),
    "fused_over_tf115_cpu": ("bridge_fused", "tf115", "cpu_us_per_step"),
}


def require_oracle() -> None:
    if not TF115_PYTHON.exists():
        raise SystemExit(f"oracle A is missing at {TF115_PYTHON}; run `make oracle-a` first.")


def run_workload(workload: Path, impl: str, arguments: list[str], labels: dict) -> dict:
    """One run of `workload` as `impl`: its last stdout line (JSON) with `labels`, or its error."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    python = sys.executable
    if impl == "tf115":
        env.pop("PYTHONPATH", None)
        python = str(TF115_PYTHON)
    else:
        env["ESTIMATOR_BRIDGE_STEP_FUSION"] = "1" if impl == "bridge_fused" else "0"
    command = [python, str(workload), "--impl", "tf115" if impl == "tf115" else "bridge", *arguments]
    load_before = os.getloadavg()[0]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=env)
    loads = {"load_before": load_before, "load_after": os.getloadavg()[0]}
    if completed.returncode != 0:
        lines = [line for line in completed.stderr.splitlines() if line.strip()]
        return {"impl": impl, **labels, "error": lines[-1] if lines else "", **loads}
    return dict(json.loads(completed.stdout.strip().splitlines()[-1]), impl=impl, **loads)


def rotated_repeat(repeat: int, run: Callable[[str], dict]) -> dict:
    """`run(impl)` for each implementation, in an order shifted by `repeat`; results by impl."""
    shift = repeat % len(IMPLS)
    by_impl = {}
    for impl in IMPLS[shift:] + IMPLS[:shift]:
        result = run(impl)
        result["repeat"] = repeat
        by_impl[impl] = result
        print(json.dumps(result), file=sys.stderr)
    return by_impl


def summarize(timed: list[dict], ratios=tuple(RATIOS)) -> dict:
    """Each implementation's measures and the named paired ratios, as spreads."""
    summary = {impl: {key: spread([run.get(key) for run in timed if run["impl"] == impl])
                      for key in MEASURES} for impl in IMPLS}
    for name in ratios:
        numerator, denominator, measure = RATIOS[name]
        summary[name] = spread(paired(timed, numerator, denominator, measure))
    return summary


def cell(stats, pattern: str) -> str:
    """'median (min-max)' of a spread, '-' without one."""
    if not stats or stats.get("median") is None:
        return "-"
    return f"{pattern.format(stats['median'])} ({pattern.format(stats['min'])}-{pattern.format(stats['max'])})"
