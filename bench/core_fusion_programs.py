"""The two fused programs of bench/core_fusion.py alternating in one process: is one slower?

Usage: python -m bench.core_fusion_programs [--rounds 8] [--steps 1500]   (one JSON document)

Separate processes seconds apart land in different speed regimes of a shared machine, so a
difference between the TPUEstimator(use_tpu=False) and the plain Estimator program seen across
processes may be the machine's. Here both programs (fusion on, default RunConfig, one step per
loop) are built in one process and trained in turn, `--steps` more steps per train() call, their
order swapped every round; each call is timed from its own per-loop log lines over the steps
after the first `WARMUP_STEPS` of the call (its checkpoints and first loops left out). Reported:
per program the median steps/s and CPU microseconds per step, and the per-round ratios
TPUEstimator / Estimator (above 1: the TPUEstimator program is faster).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time

from bench.core_fusion import build_program
from bench.core_summary import spread

PROGRAMS = ("tpu_estimator", "estimator")
WARMUP_STEPS = 200


class _CallClock(logging.Handler):
    """(wall, cpu, step) at the per-loop log lines of one train() call."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.marks = []

    def emit(self, record):
        if str(record.msg).startswith("train | step:"):
            self.marks.append((time.perf_counter(), time.process_time(), int(record.args[0])))


def timed_call(estimator, input_fn, start_step: int, steps: int) -> dict:
    clock = _CallClock()
    logger = logging.getLogger("estimator_bridge")
    logger.addHandler(clock)
    try:
        estimator.train(input_fn, max_steps=start_step + steps)
    finally:
        logger.removeHandler(clock)
    warm = next(mark for mark in clock.marks if mark[2] >= start_step + WARMUP_STEPS)
    end = clock.marks[-1]
    timed = end[2] - warm[2]
    return {"steps_per_sec": timed / (end[0] - warm[0]),
            "cpu_us_per_step": 1e6 * (end[1] - warm[1]) / timed, "timed_steps": timed}


def compare(rounds: int, steps: int) -> dict:
    os.environ["ESTIMATOR_BRIDGE_STEP_FUSION"] = "1"
    logger = logging.getLogger("estimator_bridge")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    programs = {name: build_program(name) for name in PROGRAMS}
    for estimator, input_fn in programs.values():
        estimator.train(input_fn, max_steps=steps)  # traces, first checkpoints
    started, runs = os.getloadavg(), []
    for round_index in range(rounds):
        order = PROGRAMS if round_index % 2 == 0 else PROGRAMS[::-1]
        for name in order:
            estimator, input_fn = programs[name]
            result = timed_call(estimator, input_fn, (round_index + 1) * steps, steps)
            result.update(program=name, round=round_index)
            print(json.dumps(result), file=sys.stderr)
            runs.append(result)
    by_round = {}
    for run in runs:
        by_round.setdefault(run["round"], {})[run["program"]] = run
    summary = {name: {key: spread([run[key] for run in runs if run["program"] == name])
                      for key in ("steps_per_sec", "cpu_us_per_step")} for name in PROGRAMS}
    summary["tpu_estimator_over_estimator"] = spread(
        [pair["tpu_estimator"]["steps_per_sec"] / pair["estimator"]["steps_per_sec"]
         for pair in by_round.values()])
    summary["tpu_estimator_over_estimator_cpu"] = spread(
        [pair["estimator"]["cpu_us_per_step"] / pair["tpu_estimator"]["cpu_us_per_step"]
         for pair in by_round.values()])
    return {"summary": summary, "runs": runs, "rounds": rounds, "steps": steps,
            "load_average_at_start": started, "load_average_at_end": os.getloadavg()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=1500)
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    print(json.dumps(compare(args.rounds, args.steps), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
