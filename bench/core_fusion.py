"""Step fusion side by side: one step per loop with the default hooks, bridge vs itself vs TF 1.15.

Usage: python -m bench.core_fusion workload PROGRAM --fusion on|off --steps N   (one JSON line)
       python -m bench.core_fusion [--repeats 5] [--steps 3000]            (the comparison)

PROGRAM is the probe model (bench/probe_model.py) written as
  tpu_estimator  TPUEstimator(use_tpu=False), TPUConfig(iterations_per_loop=1), and
  estimator      a plain tf.estimator.Estimator (EstimatorSpec; no iterations_per_loop),
both with the default RunConfig (save_checkpoints_secs=600, save_summary_steps=100,
log_step_count_steps=100) and no hook of the program's own: what most TF1 programs ran. The
same two programs run on TF 1.15 (bench/tf115_workload.py --program P --default-config).

Timing without a hook: a hook that runs every step would itself keep the bridge at one step per
loop (step_fusion.py), so the bridge's runs are timed from its own per-loop log line
(`train | step: N`), read by a logging handler; TF 1.15's by a hook whose after_run only notes
the time (TF 1.15 runs every hook at every step anyway). Steady state is the steps after the
first 20%; the first call is the time from train() to the end of the first loop (first step).

Every repeat runs the three implementations of a program in turn, in separate processes, their
order rotated from repeat to repeat; ratios are paired within a repeat (runs seconds apart) and
reported as median (min-max) over repeats.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.core_summary import spread

REPO_ROOT = Path(__file__).resolve().parents[1]
TF115_PYTHON = REPO_ROOT / ".oracle" / "tf115" / "bin" / "python"
PROGRAMS = ("tpu_estimator", "estimator")
IMPLS = ("bridge_fused", "bridge_unfused", "tf115")
WARMUP_FRACTION = 0.2


# ---- one workload per process ------------------------------------------------------------------

def build_program(program: str):
    """(estimator, input_fn) of the probe program as `program` wrote it, default RunConfig."""
    import tensorflow as tf

    import estimator_bridge as tpu
    from bench import probe_model as pm

    features, labels = pm.probe_arrays()
    tf1 = tf.compat.v1

    def dataset(batch_size):
        return tf.data.Dataset.from_tensor_slices((features, labels)).repeat().batch(
            batch_size, drop_remainder=True)

    def model_fn(features, labels, mode, params):
        hidden = tpu.layers.dense(features, pm.HIDDEN_UNITS, activation=tf.nn.relu,
                                  kernel_initializer=tf1.constant_initializer(0.01))
        logits = tpu.layers.dense(hidden, pm.NUM_CLASSES,
                                  kernel_initializer=tf1.constant_initializer(0.02))
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf1.train.GradientDescentOptimizer(pm.LEARNING_RATE).minimize(
            loss, tf1.train.get_global_step())
        spec = tpu.TPUEstimatorSpec if program == "tpu_estimator" else tpu.EstimatorSpec
        return spec(mode=mode, loss=loss, train_op=train_op)

    model_dir = tempfile.mkdtemp(prefix=f"bench_fusion_{program}_")
    if program == "tpu_estimator":
        config = tpu.RunConfig(model_dir=model_dir,
                               tpu_config=tpu.TPUConfig(iterations_per_loop=1))
        estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                     train_batch_size=pm.GLOBAL_BATCH_SIZE)
        return estimator, lambda params: dataset(params["batch_size"])
    estimator = tpu.Estimator(model_fn=model_fn, config=tpu.RunConfig(model_dir=model_dir))
    return estimator, lambda: dataset(pm.GLOBAL_BATCH_SIZE)


class LoopLogClock(logging.Handler):
    """Notes the wall time of every `train | step: N` line the bridge logs after a loop."""

    def __init__(self, total_steps: int):
        super().__init__(logging.INFO)
        self.warmup_steps = max(1, int(total_steps * WARMUP_FRACTION))
        self.marks = {}

    def emit(self, record):
        if not str(record.msg).startswith("train | step:"):
            return
        now, cpu, step = time.perf_counter(), time.process_time(), int(record.args[0])
        self.marks.setdefault("first", now)
        if "warm" not in self.marks and step >= self.warmup_steps:
            self.marks.update(warm=now, warm_cpu=cpu, warm_step=step)
        self.marks.update(end=now, end_cpu=cpu, end_step=step)


def run_workload(program: str, fusion: bool, steps: int) -> dict:
    os.environ["ESTIMATOR_BRIDGE_STEP_FUSION"] = "1" if fusion else "0"
    estimator, input_fn = build_program(program)
    clock = LoopLogClock(steps)
    logger = logging.getLogger("estimator_bridge")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logger.addHandler(clock)
    start = time.perf_counter()
    estimator.train(input_fn, max_steps=steps)
    marks = clock.marks
    timed = marks["end_step"] - marks["warm_step"]
    return {"impl": "bridge_fused" if fusion else "bridge_unfused", "program": program,
            "steps": steps, "first_call_s": marks["first"] - start,
            "steps_per_sec": timed / (marks["end"] - marks["warm"]) if timed else None,
            "timed_steps": timed,
            "cpu_us_per_step": (1e6 * (marks["end_cpu"] - marks["warm_cpu"]) / timed
                                if timed else None),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}


# ---- the comparison ----------------------------------------------------------------------------

def _load() -> float:
    return os.getloadavg()[0]


def run_process(impl: str, program: str, steps: int) -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    if impl == "tf115":
        env.pop("PYTHONPATH", None)
        command = [str(TF115_PYTHON), str(REPO_ROOT / "bench" / "tf115_workload.py"),
                   "--program", program, "--default-config", "--steps-per-loop", "1"]
    else:
        command = [sys.executable, "-m", "bench.core_fusion", "workload", program,
                   "--fusion", "on" if impl == "bridge_fused" else "off"]
    command += ["--steps", str(steps)]
    load_before = _load()
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=env)
    loads = {"load_before": load_before, "load_after": _load()}
    if completed.returncode != 0:
        lines = [line for line in completed.stderr.splitlines() if line.strip()]
        return {"impl": impl, "program": program, "error": lines[-1] if lines else "", **loads}
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    result.update(impl=impl, program=program, **loads)
    return result


def schedule(repeats: int):
    for repeat in range(repeats):
        for program in PROGRAMS:
            shift = repeat % len(IMPLS)
            for impl in IMPLS[shift:] + IMPLS[:shift]:
                yield repeat, program, impl


def paired(runs, numerator, denominator, measure="steps_per_sec"):
    """numerator/denominator of `measure` per repeat (for CPU per step: denominator/numerator,
    so that above 1 means the numerator is faster either way)."""
    by_repeat = {}
    for run in runs:
        if run.get(measure):
            by_repeat.setdefault(run["repeat"], {})[run["impl"]] = run[measure]
    pairs = [(values[numerator], values[denominator]) for _, values in sorted(by_repeat.items())
             if numerator in values and denominator in values]
    if measure == "cpu_us_per_step":
        return [den / num for num, den in pairs]
    return [num / den for num, den in pairs]


def summarize(runs) -> list[dict]:
    rows = []
    for program in PROGRAMS:
        program_runs = [run for run in runs if run["program"] == program]
        row = {"program": program, "steps_per_loop": 1}
        for impl in IMPLS:
            ok = [run for run in program_runs if run["impl"] == impl and "error" not in run]
            row[impl] = {key: spread([run.get(key) for run in ok])
                         for key in ("steps_per_sec", "cpu_us_per_step", "first_call_s",
                                     "peak_rss_mb")}
            errors = [run["error"] for run in program_runs
                      if run["impl"] == impl and "error" in run]
            if errors:
                row[impl]["errors"] = errors
        row["fused_over_tf115"] = spread(paired(program_runs, "bridge_fused", "tf115"))
        row["fused_over_unfused"] = spread(paired(program_runs, "bridge_fused", "bridge_unfused"))
        row["unfused_over_tf115"] = spread(paired(program_runs, "bridge_unfused", "tf115"))
        # The same ratios in CPU time per step: less sensitive to the machine's other tenants.
        for name, (numerator, denominator) in {
                "fused_over_tf115_cpu": ("bridge_fused", "tf115"),
                "fused_over_unfused_cpu": ("bridge_fused", "bridge_unfused")}.items():
            row[name] = spread(paired(program_runs, numerator, denominator, "cpu_us_per_step"))
        rows.append(row)
    return rows


def compare(repeats: int, steps: int) -> dict:
    """Runs the schedule; returns {'summary', 'runs', 'load_average_at_start/end'}."""
    if not TF115_PYTHON.exists():
        raise SystemExit(f"oracle A is missing at {TF115_PYTHON}; run `make oracle-a` first.")
    started = os.getloadavg()
    runs = []
    for repeat, program, impl in schedule(repeats):
        result = run_process(impl, program, steps)
        result["repeat"] = repeat
        print(json.dumps(result), file=sys.stderr)
        runs.append(result)
    return {"summary": summarize(runs), "runs": runs, "repeats": repeats, "steps": steps,
            "load_average_at_start": started, "load_average_at_end": os.getloadavg()}


def render(fusion: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    def cell(stats, pattern):
        if not stats or stats.get("median") is None:
            return "-"
        return (f"{pattern.format(stats['median'])} ({pattern.format(stats['min'])}-"
                f"{pattern.format(stats['max'])})")

    table = Table(title="one step per loop, default hooks: median steps/s (min-max); paired "
                        f"ratios; load {fusion['load_average_at_start'][0]:.1f} at start, "
                        f"{fusion['load_average_at_end'][0]:.1f} at end")
    for column in ("program", *IMPLS, "fused/tf115", "fused/unfused", "unfused/tf115",
                   "fused/tf115 CPU", "fused/unfused CPU", "first call fused s",
                   "first call tf115 s"):
        table.add_column(column, justify="right")
    for row in fusion["summary"]:
        table.add_row(row["program"], *(cell(row[impl]["steps_per_sec"], "{:.0f}")
                                         for impl in IMPLS),
                      cell(row["fused_over_tf115"], "{:.2f}"),
                      cell(row["fused_over_unfused"], "{:.2f}"),
                      cell(row["unfused_over_tf115"], "{:.2f}"),
                      cell(row["fused_over_tf115_cpu"], "{:.2f}"),
                      cell(row["fused_over_unfused_cpu"], "{:.2f}"),
                      cell(row["bridge_fused"]["first_call_s"], "{:.2f}"),
                      cell(row["tf115"]["first_call_s"], "{:.2f}"))
    Console(width=240).print(table)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    one = sub.add_parser("workload")
    one.add_argument("program", choices=PROGRAMS)
    one.add_argument("--fusion", choices=("on", "off"), required=True)
    one.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=3000)
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    if args.command == "workload":
        print(json.dumps(run_workload(args.program, args.fusion == "on", args.steps)))
        return 0
    fusion = compare(args.repeats, args.steps)
    print(json.dumps(fusion["summary"], indent=2))
    render(fusion)
    return 0


if __name__ == "__main__":
    sys.exit(main())
