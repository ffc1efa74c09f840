"""The bridge and the hand-written TF2 loop alternating loop by loop in one process.

Usage: python -m bench.core_paired --replicas R --steps-per-loop K --rounds N

Why a second measurement beside `core_workloads` (one process per implementation): on this
shared 2-core machine the speed of the machine itself drifts. A pure-Python control loop
varies by 20% from one run to the next, and whole training processes come out either near
2,000 or near 1,000 steps/s for the same program (measured, docs/core.md). Two processes run
seconds apart can therefore land in different regimes, and a ratio of 0.9 or 1.1 between them
says more about the machine than about the code.

Here both implementations are built in one process and then take turns: one bridge loop of
K steps, one TF2 loop of K steps, again and again. Each round pairs two loops that ran within
milliseconds of each other, and the reported ratio is the median over rounds of
`tf2_loop_seconds / bridge_seconds` (the bridge's steps/s over the TF2 loop's). The bridge's
time is everything between two of its loops' ends: the traced call, the per-loop bookkeeping
(NaN check, summaries, logging, reading the global step) and the hook that hands over to the
TF2 loop. The first rounds (tracing, warm-up) are dropped.

Prints one JSON line: the paired ratios' median and quartiles, each side's median seconds per
loop and CPU microseconds per step.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from bench.core_workloads import build_bridge, build_tf2_loop, configure_devices, loop_hook

WARMUP_ROUNDS = 5


class Alternation:
    """Runs one TF2 loop after each bridge loop and records both sides' wall and CPU time."""

    def __init__(self, tf2_run, steps_per_loop: int):
        self.tf2_run = tf2_run
        self.steps_per_loop = steps_per_loop
        self.rounds = []  # (bridge_wall, bridge_cpu, tf2_wall, tf2_cpu)
        self._bridge_started = None

    def start(self):
        self._bridge_started = (time.perf_counter(), time.process_time())

    def after_bridge_loop(self, _step):
        bridge_end = (time.perf_counter(), time.process_time())
        self.tf2_run(self.steps_per_loop)
        tf2_end = (time.perf_counter(), time.process_time())
        self.rounds.append((bridge_end[0] - self._bridge_started[0],
                            bridge_end[1] - self._bridge_started[1],
                            tf2_end[0] - bridge_end[0], tf2_end[1] - bridge_end[1]))
        self._bridge_started = tf2_end


def quartiles(values):
    low, median, high = statistics.quantiles(values, n=4)
    return {"median": median, "q1": low, "q3": high, "n": len(values)}


def summarize(rounds, steps_per_loop: int) -> dict:
    timed = rounds[WARMUP_ROUNDS:]
    if len(timed) < 4:
        raise SystemExit(f"only {len(timed)} timed rounds: pass --rounds > {WARMUP_ROUNDS + 3}")
    bridge_wall, bridge_cpu, tf2_wall, tf2_cpu = zip(*timed)
    return {
        "bridge_over_tf2_loop": quartiles([t / b for b, _, t, _ in timed]),
        "bridge_over_tf2_loop_cpu": quartiles([t / b for _, b, _, t in timed]),
        "bridge_seconds_per_loop": statistics.median(bridge_wall),
        "tf2_loop_seconds_per_loop": statistics.median(tf2_wall),
        "bridge_cpu_us_per_step": 1e6 * statistics.median(bridge_cpu) / steps_per_loop,
        "tf2_loop_cpu_us_per_step": 1e6 * statistics.median(tf2_cpu) / steps_per_loop,
        "timed_rounds": len(timed),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--steps-per-loop", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    strategy = configure_devices(args.replicas)
    tf2_run = build_tf2_loop(strategy)
    estimator, input_fn = build_bridge(args.replicas, args.steps_per_loop)
    alternation = Alternation(tf2_run, args.steps_per_loop)
    alternation.start()
    estimator.train(input_fn, max_steps=args.rounds * args.steps_per_loop,
                    hooks=[loop_hook(alternation.after_bridge_loop)])
    result = summarize(alternation.rounds, args.steps_per_loop)
    result.update(replicas=args.replicas, steps_per_loop=args.steps_per_loop,
                  load_average=os.getloadavg()[0])
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
