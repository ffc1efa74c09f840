"""Step fusion side by side: one step per loop with the default hooks, bridge vs itself vs TF 1.15.

Usage: python -m bench.core_fusion [--repeats 15] [--steps 2000] [--warmup-steps 200]
       python -m bench.core_fusion serve PROGRAM --fusion on|off   (a worker; see below)

PROGRAM is the probe model (bench/probe_model.py) written as
  tpu_estimator  TPUEstimator(use_tpu=False), TPUConfig(iterations_per_loop=1), and
  estimator      a plain tf.estimator.Estimator (EstimatorSpec; no iterations_per_loop),
both with the default RunConfig (save_checkpoints_secs=600, save_summary_steps=100,
log_step_count_steps=100) and no hook of the program's own: what most TF1 programs ran. The
same two programs run on TF 1.15 (bench/tf115_workload.py --program P --default-config).

Built for a shared machine. Each implementation of each program is one long-lived worker
process (bridge fused, bridge with ESTIMATOR_BRIDGE_STEP_FUSION=0, TF 1.15): its first train()
call, from step 0, gives the first call and warms it up; then every repeat asks each worker, in
an order rotated from repeat to repeat (fusion_sides.rotated_repeat), for one more train() call
of `--steps` steps, timed over the steps after the call's first `--warmup-steps`. The three calls
of a repeat run seconds apart, so the paired ratios of a repeat (fused / TF 1.15, fused /
unfused, in wall time and in CPU time per step) compare the implementations under the same
machine state; many short repeats give their median and range. Every call also records its peak
memory, the 1-minute load average before and after, and how many cores other processes used
meanwhile (machine_load.py); repeats whose three calls all ran beside less than
`QUIET_OTHER_CORES` of other work are summarised again on their own ("quiet" repeats).

Timing without a hook: a hook that runs every step would itself keep the bridge at one step per
loop (step_fusion.py), so the bridge's calls are timed from its own per-loop log line
(`train | step: N`), read by a logging handler; TF 1.15's by a hook whose after_run only notes
the time (TF 1.15 runs every hook at every step anyway). The bridge's fused and unfused calls of
a repeat end at the same global step and must end with the same loss; a repeat where they do
not is an error, not a timing.
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

from bench import machine_load
from bench.core_summary import spread

REPO_ROOT = Path(__file__).resolve().parents[1]
TF115_PYTHON = REPO_ROOT / ".oracle" / "tf115" / "bin" / "python"
PROGRAMS = ("tpu_estimator", "estimator")
IMPLS = ("bridge_fused", "bridge_unfused", "tf115")
WARMUP_STEPS = 200
# A repeat counts as quiet when other processes used less than this many cores (of the
# machine's) during each of its three calls.
QUIET_OTHER_CORES = 0.25


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
    """Notes wall and CPU time at every `train | step: N` line the bridge logs after a loop,
    for one train() call at a time (`start`)."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.marks = {}
        self._warm_step = None

    def start(self, start_step: int, warmup_steps: int) -> None:
        self.marks = {}
        self._warm_step = start_step + warmup_steps

    def emit(self, record):
        if not str(record.msg).startswith("train | step:"):
            return
        now, cpu, step = time.perf_counter(), time.process_time(), int(record.args[0])
        self.marks.setdefault("first", now)
        if "warm" not in self.marks and step >= self._warm_step:
            self.marks.update(warm=now, warm_cpu=cpu, warm_step=step)
        self.marks.update(end=now, end_cpu=cpu, end_step=step, loss=float(record.args[2]))


def serve(program: str, fusion: bool, warmup_steps: int, lines=sys.stdin) -> None:
    """The worker: one train() call per step count read from `lines`, one JSON line each."""
    os.environ["ESTIMATOR_BRIDGE_STEP_FUSION"] = "1" if fusion else "0"
    estimator, input_fn = build_program(program)
    clock = LoopLogClock()
    logger = logging.getLogger("estimator_bridge")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logger.addHandler(clock)
    step = 0
    for line in lines:
        if not line.strip():
            continue
        steps = int(line)
        clock.start(step, warmup_steps)
        started, cpu_started = time.perf_counter(), time.process_time()
        estimator.train(input_fn, max_steps=step + steps)
        step += steps
        print(json.dumps(_call_record(clock.marks, program, fusion, step - steps, steps, started,
                                      cpu_started)), flush=True)


def _call_record(marks, program, fusion, start_step, steps, started, cpu_started) -> dict:
    timed = marks["end_step"] - marks["warm_step"] if "warm" in marks else 0
    return {"impl": "bridge_fused" if fusion else "bridge_unfused", "program": program,
            "start_step": start_step, "steps": steps, "first_call_s": marks["first"] - started,
            "call_s": time.perf_counter() - started,
            "call_cpu_s": time.process_time() - cpu_started,
            "steps_per_sec": timed / (marks["end"] - marks["warm"]) if timed else None,
            "timed_steps": timed,
            "cpu_us_per_step": (1e6 * (marks["end_cpu"] - marks["warm_cpu"]) / timed
                                if timed else None),
            "final_loss": marks.get("loss"),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}


# ---- the comparison ----------------------------------------------------------------------------

class Worker:
    """One implementation of one program in its own process, answering timed train() calls."""

    def __init__(self, impl: str, program: str, warmup_steps: int, log_dir: Path):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
        if impl == "tf115":
            env.pop("PYTHONPATH", None)
            command = [str(TF115_PYTHON), str(REPO_ROOT / "bench" / "tf115_workload.py"),
                       "--program", program, "--default-config", "--steps-per-loop", "1",
                       "--serve"]
        else:
            command = [sys.executable, "-m", "bench.core_fusion", "serve", program,
                       "--fusion", "on" if impl == "bridge_fused" else "off"]
        command += ["--warmup-steps", str(warmup_steps)]
        self.impl, self.program = impl, program
        self._stderr = open(log_dir / f"{program}-{impl}.stderr", "w+")  # noqa: SIM115
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, text=True, cwd=REPO_ROOT, env=env)

    def call(self, steps: int) -> dict:
        """One more train() call of `steps` steps: the worker's record, with the machine's load."""
        load_before, busy_before = os.getloadavg()[0], machine_load.busy_cpu_seconds()
        started = time.perf_counter()
        self._process.stdin.write(f"{steps}\n")
        self._process.stdin.flush()
        result = self._read_record()
        wall = time.perf_counter() - started
        loads = {"load_before": load_before, "load_after": os.getloadavg()[0], "wall_s": wall}
        if result is None:
            return {"impl": self.impl, "program": self.program, "error": self._last_error(),
                    **loads}
        result.update(impl=self.impl, program=self.program, **loads, other_cores=(
            machine_load.other_cores(busy_before, machine_load.busy_cpu_seconds(),
                                     result["call_cpu_s"], wall)))
        return result

    def _read_record(self):
        """The worker's next JSON record (other stdout lines skipped), None if it exited."""
        for line in self._process.stdout:
            if line.startswith("{"):
                return json.loads(line)
        return None

    def _last_error(self) -> str:
        self._stderr.seek(0)
        lines = [line for line in self._stderr.read().splitlines() if line.strip()]
        return lines[-1] if lines else f"worker exited with {self._process.poll()}"

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._stderr.close()


def schedule(repeats: int):
    """(repeat, program, impl) in run order: programs in turn, impls rotated per repeat."""
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
        if run.get(measure) and "error" not in run:
            by_repeat.setdefault(run["repeat"], {})[run["impl"]] = run[measure]
    pairs = [(values[numerator], values[denominator]) for _, values in sorted(by_repeat.items())
             if numerator in values and denominator in values]
    if measure == "cpu_us_per_step":
        return [den / num for num, den in pairs]
    return [num / den for num, den in pairs]


RATIOS = {  # name -> (numerator, denominator, measure)
    "fused_over_tf115": ("bridge_fused", "tf115", "steps_per_sec"),
    "fused_over_unfused": ("bridge_fused", "bridge_unfused", "steps_per_sec"),
    "unfused_over_tf115": ("bridge_unfused", "tf115", "steps_per_sec"),
    "fused_over_tf115_cpu": ("bridge_fused", "tf115", "cpu_us_per_step"),
    "fused_over_unfused_cpu": ("bridge_fused", "bridge_unfused", "cpu_us_per_step"),
}
SHOWN_RATIOS = ("fused_over_tf115", "fused_over_unfused", "fused_over_tf115_cpu",
                "fused_over_unfused_cpu")  # the table's; the JSON has every ratio
MEASURES = ("steps_per_sec", "cpu_us_per_step", "peak_rss_mb", "call_s", "other_cores")


def mark_loss_mismatches(by_impl: dict) -> dict:
    """Marks (as errors, so they are not timed) a repeat's bridge calls whose final losses
    differ fused and unfused: the same steps from the same start must give the same loss."""
    fused, unfused = by_impl.get("bridge_fused", {}), by_impl.get("bridge_unfused", {})
    if "error" in fused or "error" in unfused:
        return by_impl
    if fused.get("final_loss") is None or fused.get("final_loss") != unfused.get("final_loss"):
        for result in (fused, unfused):
            result["error"] = (f"final loss fused {fused.get('final_loss')!r} != unfused "
                               f"{unfused.get('final_loss')!r}")
    return by_impl


def quiet_repeats(runs) -> set:
    """Repeats whose every call ran beside less than QUIET_OTHER_CORES of other work."""
    by_repeat = {}
    for run in runs:
        cores = run.get("other_cores")
        by_repeat.setdefault(run["repeat"], []).append(
            "error" not in run and cores is not None and cores < QUIET_OTHER_CORES)
    return {repeat for repeat, quiet in by_repeat.items() if all(quiet)}


def summarize_program(runs: list[dict], first_calls: list[dict]) -> dict:
    """One program: per implementation its measures, first call, errors; the paired ratios
    over all repeats, per repeat, and over the quiet repeats."""
    row = {"steps_per_loop": 1}
    for impl in IMPLS:
        ok = [run for run in runs if run["impl"] == impl and "error" not in run]
        row[impl] = {key: spread([run.get(key) for run in ok]) for key in MEASURES}
        row[impl]["first_call_s"] = next((run.get("first_call_s") for run in first_calls
                                          if run["impl"] == impl), None)
        errors = [run["error"] for run in runs if run["impl"] == impl and "error" in run]
        if errors:
            row[impl]["errors"] = errors
    quiet = quiet_repeats(runs)
    quiet_runs = [run for run in runs if run["repeat"] in quiet]
    for name, (numerator, denominator, measure) in RATIOS.items():
        row[name] = spread(paired(runs, numerator, denominator, measure))
        row[f"{name}_quiet"] = spread(paired(quiet_runs, numerator, denominator, measure))
    row["quiet_repeats"] = sorted(quiet)
    row["per_repeat"] = _per_repeat(runs)
    return row


def _per_repeat(runs) -> list[dict]:
    """Each repeat's ratios, its order and the most other work any of its calls saw."""
    repeats = sorted({run["repeat"] for run in runs})
    rows = []
    for repeat in repeats:
        mine = [run for run in runs if run["repeat"] == repeat]
        cores = [run.get("other_cores") for run in mine if run.get("other_cores") is not None]
        row = {"repeat": repeat, "order": [run["impl"] for run in mine],
               "max_other_cores": max(cores) if cores else None}
        for name, (numerator, denominator, measure) in RATIOS.items():
            values = paired(mine, numerator, denominator, measure)
            row[name] = values[0] if values else None
        rows.append(row)
    return rows


def compare(repeats: int, steps: int, warmup_steps: int = WARMUP_STEPS) -> dict:
    """Starts the workers, runs the schedule; returns {'summary', 'runs', 'first_calls', ...}."""
    from bench.fusion_sides import rotated_repeat

    if not TF115_PYTHON.exists():
        raise SystemExit(f"oracle A is missing at {TF115_PYTHON}; run `make oracle-a` first.")
    if steps <= warmup_steps:
        raise SystemExit(f"--steps ({steps}) must exceed --warmup-steps ({warmup_steps})")
    started_at, started = time.perf_counter(), os.getloadavg()
    log_dir = Path(tempfile.mkdtemp(prefix="bench_fusion_workers_"))
    workers, first_calls, runs = {}, [], []
    try:
        for program in PROGRAMS:
            for impl in IMPLS:
                worker = workers[program, impl] = Worker(impl, program, warmup_steps, log_dir)
                first = worker.call(steps)  # one at a time: the first call measured alone
                first.update(repeat=None)
                print(json.dumps(first), file=sys.stderr)
                first_calls.append(first)
        for repeat in range(repeats):
            for program in PROGRAMS:
                by_impl = rotated_repeat(repeat, lambda impl: workers[program, impl].call(steps))
                runs.extend(mark_loss_mismatches(by_impl).values())
    finally:
        for worker in workers.values():
            worker.close()
    summary = []
    for program in PROGRAMS:
        row = summarize_program([run for run in runs if run["program"] == program],
                                [run for run in first_calls if run["program"] == program])
        summary.append({"program": program, **row})
    return {"summary": summary, "runs": runs, "first_calls": first_calls, "repeats": repeats,
            "steps": steps, "warmup_steps": warmup_steps, "quiet_other_cores": QUIET_OTHER_CORES,
            "load_average_at_start": started, "load_average_at_end": os.getloadavg(),
            "duration_s": time.perf_counter() - started_at}


def render(fusion: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    def cell(stats, pattern):
        if not stats or stats.get("median") is None:
            return "-"
        return (f"{pattern.format(stats['median'])} ({pattern.format(stats['min'])}-"
                f"{pattern.format(stats['max'])})")

    table = Table(title="one step per loop, default hooks, train() calls of "
                        f"{fusion['steps']} steps: median (min-max) over "
                        f"{fusion['repeats']} repeats; ratios paired per repeat; load "
                        f"{fusion['load_average_at_start'][0]:.1f} at start, "
                        f"{fusion['load_average_at_end'][0]:.1f} at end")
    for column in ("program", *(f"{impl} steps/s" for impl in IMPLS),
                   *(f"{impl} CPU us/step" for impl in IMPLS), *SHOWN_RATIOS,
                   f"quiet repeats (<{fusion['quiet_other_cores']} other cores)",
                   "fused/tf115 quiet", "fused/unfused quiet", "peak RSS MB fused/unfused/tf115",
                   "first call s fused/unfused/tf115"):
        table.add_column(column, justify="right")
    for row in fusion["summary"]:
        table.add_row(
            row["program"], *(cell(row[impl]["steps_per_sec"], "{:.0f}") for impl in IMPLS),
            *(cell(row[impl]["cpu_us_per_step"], "{:.0f}") for impl in IMPLS),
            *(cell(row[name], "{:.2f}") for name in SHOWN_RATIOS),
            str(len(row["quiet_repeats"])),
            cell(row["fused_over_tf115_quiet"], "{:.2f}"),
            cell(row["fused_over_unfused_quiet"], "{:.2f}"),
            "/".join(f"{row[impl]['peak_rss_mb']['max']:.0f}"
                     if row[impl]["peak_rss_mb"]["max"] else "-" for impl in IMPLS),
            "/".join(f"{row[impl]['first_call_s']:.2f}"
                     if row[impl]["first_call_s"] is not None else "-" for impl in IMPLS))
    Console(width=300).print(table)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    worker = sub.add_parser("serve")
    worker.add_argument("program", choices=PROGRAMS)
    worker.add_argument("--fusion", choices=("on", "off"), required=True)
    worker.add_argument("--warmup-steps", type=int, default=WARMUP_STEPS)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--warmup-steps", type=int, default=WARMUP_STEPS)
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    if args.command == "serve":
        serve(args.program, args.fusion == "on", args.warmup_steps)
        return 0
    fusion = compare(args.repeats, args.steps, args.warmup_steps)
    print(json.dumps(fusion["summary"], indent=2))
    render(fusion)
    return 0


if __name__ == "__main__":
    sys.exit(main())
