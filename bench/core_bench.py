"""Bridge throughput against its baselines, run side by side; writes bench/results/core.json.

Usage: python -m bench.core_bench [--repeats 3] [--steps 3000] [--quick] [--output PATH]

For every (replicas, steps per loop) cell it runs each implementation in its own process.
The machine is shared and noisy, so the schedule is built to make noise visible, not to hide
it: every repeat visits every cell, implementations are interleaved within a cell and their
order rotates from repeat to repeat (load that arrives mid-cell hits each of them in turn),
and the summary reports the median with the min and max over repeats. Ratios are paired: the
bridge's run is divided by the baseline's run of the same repeat and cell (runs seconds apart),
and the median of those per-repeat ratios is reported with their spread:
  bridge / tf115      target >= 2x at 100 steps per loop (TF 1.15 TPUEstimator(use_tpu=False));
  bridge / tf2_loop   target >= 0.95 at 100 steps per loop (hand-written TF2 custom loop);
  bridge / keras_fit  for information (Keras 3 fit with steps_per_execution).
TF 1.15 has no replicas on CPU, so it only appears in the 1-replica rows. The 1-minute load
average is recorded at the start and end of the whole run and of every single run.

Then `core_fusion` compares, at one step per loop with the default hooks, the bridge with step
fusion against itself without and against TF 1.15, for a TPUEstimator(use_tpu=False) and a plain
Estimator program (the `fusion` section of the JSON; targets >= 1.5x both): one long-lived
process per implementation, `--fusion-repeats` rounds of short timed train() calls of
`--fusion-steps` steps in rotated order, ratios paired per round, with the machine's other work
during every call. `core_eval_fusion` compares evaluate() on data of unknown length likewise (the
`eval_fusion` section) and `core_predict_fusion` predict() on finite and unknown-length input
(the `predict_fusion` section), `--side-repeats` times each. `--fusion-only` runs only those
comparisons (`--fusion-sections` picks among them) and replaces their sections of the existing
results file. Every section records how long it took (`duration_s`), and the whole run too.

Separate processes seconds apart still land in different speed regimes of this machine (whole
runs of the same program come out near 2,000 or near 1,000 steps/s), so every repeat of every
cell also runs `core_paired`: the bridge and the TF2 loop alternating loop by loop in one
process. Its ratio (`bridge_over_tf2_loop_in_process`) is the one the 0.95 target is judged
on; the separate-process ratio is kept beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench import core_eval_fusion, core_fusion, core_predict_fusion
from bench.core_summary import BASELINES, IMPLS, summarize

REPO_ROOT = Path(__file__).resolve().parents[1]
RESULTS_FILE = REPO_ROOT / "bench" / "results" / "core.json"
CURRENT_TF_IMPLS = ("bridge", "tf2_loop", "keras_fit")

# Failures of a baseline that are not ours, recognised in the run's stderr and named in the JSON.
KNOWN_BASELINE_FAILURES = {
    "keras_fit": (
        "You must feed a value for placeholder tensor",
        "Keras 3 failure, the error of keras-team/keras#19246 (open: all-reduce inside fit() "
        "under MirroredStrategy): fit() with steps_per_execution > 1 on several replicas runs "
        "its steps in a tf.while_loop/tf.cond around the optimizer's merge_call and a placeholder "
        "of that graph is not fed; the same model fits with 1 step per execution, or with 100 "
        "on one replica (measured), so the workload is not at fault",
    ),
}


def load_average() -> float:
    return os.getloadavg()[0]


def tf115_python() -> Path:
    """TF 1.15's interpreter, found where verify finds it (verify/oracles.py: $ESTIMATOR_BRIDGE_ORACLES,
    the checkout's .oracle, the cache folder)."""
    from verify.oracles import OracleUnavailable, located

    try:
        return located("tf115")
    except OracleUnavailable as error:
        raise SystemExit(str(error)) from None


def run_workload(impl: str, replicas: int, steps_per_loop: int, steps: int) -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    if impl == "tf115":
        env.pop("PYTHONPATH", None)
        command = [str(tf115_python()), str(REPO_ROOT / "bench" / "tf115_workload.py")]
    else:
        command = [sys.executable, "-m", "bench.core_workloads", impl, "--replicas", str(replicas)]
    command += ["--steps-per-loop", str(steps_per_loop), "--steps", str(steps)]
    load_before = load_average()
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=env)
    loads = {"load_before": load_before, "load_after": load_average()}
    if completed.returncode != 0:
        return {"impl": impl, "error": describe_failure(impl, completed.stderr), **loads}
    return {**json.loads(completed.stdout.strip().splitlines()[-1]), **loads}


# Rounds of the in-process alternation per cell: ~10-25 s of each implementation per run.
IN_PROCESS_ROUNDS = {(1, 1): 1000, (1, 100): 200, (8, 1): 300, (8, 100): 30}


def run_in_process(replicas: int, steps_per_loop: int) -> dict:
    """One `core_paired` process: the bridge and the TF2 loop alternating loop by loop."""
    command = [sys.executable, "-m", "bench.core_paired", "--replicas", str(replicas),
               "--steps-per-loop", str(steps_per_loop),
               "--rounds", str(IN_PROCESS_ROUNDS[(replicas, steps_per_loop)])]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    load_before = load_average()
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=env)
    loads = {"load_before": load_before, "load_after": load_average()}
    if completed.returncode != 0:
        return {"impl": "in_process", "error": describe_failure("bridge", completed.stderr),
                **loads}
    return {**json.loads(completed.stdout.strip().splitlines()[-1]), **loads}


def describe_failure(impl: str, stderr: str) -> dict:
    """The last line of a failed run's stderr, and the known upstream bug it matches, if any."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    failure = {"last_line": lines[-1] if lines else ""}
    marker, explanation = KNOWN_BASELINE_FAILURES.get(impl, (None, None))
    if marker is not None and marker in stderr:
        failure["known_issue"] = explanation
    return failure


def schedule(cells, repeats: int):
    """(repeat, replicas, steps_per_loop, impl) in run order: cells per repeat, impls rotated.

    `in_process` (the alternating bridge/TF2-loop process) takes its turn with the others.
    """
    for repeat in range(repeats):
        for replicas, steps_per_loop in cells:
            impls = CURRENT_TF_IMPLS + (("tf115",) if replicas == 1 else ()) + ("in_process",)
            shift = repeat % len(impls)
            for impl in impls[shift:] + impls[:shift]:
                yield repeat, replicas, steps_per_loop, impl


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--quick", action="store_true", help="1 repeat, 1 replica only")
    parser.add_argument("--output", type=Path, default=RESULTS_FILE,
                        help="where to write the JSON (default: bench/results/core.json)")
    parser.add_argument("--fusion-repeats", type=int, default=15,
                        help="repeats of the training-fusion comparison (short paired calls)")
    parser.add_argument("--fusion-steps", type=int, default=2000,
                        help="steps per timed train() call of the training-fusion comparison")
    parser.add_argument("--side-repeats", type=int, default=3,
                        help="repeats of the evaluate() and predict() fusion comparisons")
    parser.add_argument("--fusion-only", action="store_true",
                        help="only the step-fusion comparisons, merged into the existing file")
    parser.add_argument("--fusion-sections", default=",".join(FUSION_SECTIONS),
                        help="with --fusion-only: which of fusion,eval_fusion,predict_fusion")
    args = parser.parse_args(argv)
    if args.fusion_only:
        sections = run_fusion_sections(args, args.fusion_sections.split(","))
        results = json.loads(args.output.read_text()) if args.output.exists() else {}
        results.update(sections)
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(results, indent=2) + "\n")
        render_fusion_sections(sections)
        print(f"results written to {args.output}")
        return 0
    replica_counts = (1,) if args.quick else (1, 8)
    repeats = 1 if args.quick else args.repeats
    cells = [(replicas, steps_per_loop) for replicas in replica_counts
             for steps_per_loop in (1, 100)]

    started = {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "load_average": os.getloadavg(), "clock": time.perf_counter()}
    raw_runs, in_process_runs = [], []
    for repeat, replicas, steps_per_loop, impl in schedule(cells, repeats):
        if impl == "in_process":
            result = run_in_process(replicas, steps_per_loop)
            in_process_runs.append(result)
        else:
            # 8 replicas share 2 cores: fewer steps keep the run short; still steady state.
            steps = args.steps if replicas == 1 else max(400, args.steps // 6)
            result = run_workload(impl, replicas, steps_per_loop, steps)
            raw_runs.append(result)
        result.update(repeat=repeat, replicas=replicas, steps_per_loop=steps_per_loop)
        print(json.dumps(result), file=sys.stderr)
    fusion_sections = run_fusion_sections(args, FUSION_SECTIONS)
    finished = {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "load_average": os.getloadavg()}

    summary = summarize(raw_runs, cells, in_process_runs)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({
        "benchmark": "core", "when": started["when"],
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "load_average_at_start": started["load_average"],
                    "load_average_at_end": finished["load_average"]},
        "repeats": repeats, "duration_s": time.perf_counter() - started["clock"],
        "summary": summary, "runs": raw_runs, "in_process_runs": in_process_runs,
        **fusion_sections,
    }, indent=2) + "\n")
    render(summary, started["load_average"], finished["load_average"])
    render_fusion_sections(fusion_sections)
    print(f"results written to {args.output}")
    return 0


FUSION_SECTIONS = ("fusion", "eval_fusion", "predict_fusion")


def run_fusion_sections(args, sections) -> dict:
    """The fusion comparisons named in `sections`, each with how long it took (duration_s)."""
    runners = {
        "fusion": lambda: core_fusion.compare(args.fusion_repeats, args.fusion_steps),
        "eval_fusion": lambda: core_eval_fusion.compare(args.side_repeats),
        "predict_fusion": lambda: core_predict_fusion.compare(args.side_repeats),
    }
    unknown = sorted(set(sections) - set(runners))
    if unknown:
        raise SystemExit(f"unknown fusion section(s) {unknown}; choose from {FUSION_SECTIONS}")
    results = {}
    for name in FUSION_SECTIONS:
        if name in sections:
            started = time.perf_counter()
            results[name] = runners[name]()
            results[name]["duration_s"] = time.perf_counter() - started
    return results


def render_fusion_sections(sections: dict) -> None:
    renderers = {"fusion": core_fusion.render, "eval_fusion": core_eval_fusion.render,
                 "predict_fusion": core_predict_fusion.render}
    for name, result in sections.items():
        renderers[name](result)


def fmt(value, pattern="{:.0f}"):
    return "-" if value is None else pattern.format(value)


def fmt_spread(stats, pattern="{:.0f}"):
    """'median (min-max)' of a summary entry, '-' when nothing was measured."""
    if not stats or stats.get("median") is None:
        return "-"
    return (f"{pattern.format(stats['median'])} "
            f"({pattern.format(stats['min'])}-{pattern.format(stats['max'])})")


def render(summary: list[dict], load_start, load_end) -> None:
    table = Table(title="bridge vs baselines: median steps/s (min-max over repeats); paired "
                        f"ratios; load average {load_start[0]:.1f} at start, {load_end[0]:.1f} "
                        "at end")
    for column in ("replicas", "steps/loop", *IMPLS, *(f"bridge/{b}" for b in BASELINES),
                   "bridge/tf2_loop in process", "first call bridge s", "peak RSS bridge MB"):
        table.add_column(column, justify="right")
    for row in summary:
        table.add_row(
            str(row["replicas"]), str(row["steps_per_loop"]),
            *(fmt_spread(row[impl]["steps_per_sec"]) for impl in IMPLS),
            *(fmt_spread(row[f"bridge_over_{b}"], "{:.2f}") for b in BASELINES),
            fmt_spread(row["bridge_over_tf2_loop_in_process"], "{:.3f}"),
            fmt_spread(row["bridge"]["first_call_s"], "{:.2f}"),
            fmt(row["bridge"]["peak_rss_mb"]["median"]),
        )
    Console(width=240).print(table)


if __name__ == "__main__":
    sys.exit(main())
