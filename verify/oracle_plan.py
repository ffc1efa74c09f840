"""How the oracle's spread runs differ from its first run, so that its spread measures rounding.

A program the oracle repeats to the last bit has shown nothing about its sensitivity to float
rounding, and a current-TF side never rounds exactly as TF 1.15 did. tensorflow/tpu's
mnist_tpuestimator notebook (bias-free dense layer fed by constant pixels, batch norm, Adam) is
such a program: at 18 steps TF 1.15 repeated itself exactly, so every number was held to the flat
training rtol, and both sides failed on an eval loss 5.9e-4 away -- while TF 1.15 itself moves
that loss by 2.1e-4 on 1 CPU instead of 2. Weights whose gradient is zero in exact arithmetic get
rounding noise, which Adam turns into full steps.

So each spread run changes what rounds, never what is computed:
  * the number of intra-op threads (TF_NUM_INTRAOP_THREADS, read by TF 1.15 and TF 2.x): Eigen
    shards the inner dimension of a long contraction (a convolution's filter gradient, a dense
    kernel's gradient over a large batch) by thread count, so partial sums add up in another
    order. Run 2 uses one thread, run 3 twice the CPUs the oracle may use (the default is one per
    CPU); measured on TF 1.15 with a 64x200000 by 200000x64 matmul: 1, 2, 4, 8 and 16 threads
    give four different sums, 2 and 3 the same;
  * for a TF 2.x oracle, oneDNN's kernels off in run 2 and on in run 3 (pipeline.oracle_has_onednn).
A program that does not amplify rounding keeps a spread of ~1e-7 (below every tolerance): its
runs may then differ where they did not before, and verify goes on to a third run instead of
calling it deterministic, which only costs time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class OracleRun:
    """How one oracle run is started: its kernels and threads (None: TensorFlow's default)."""

    index: int  # 1-based
    onednn: bool = True
    intra_op_threads: int | None = None

    def describe(self) -> str:
        """For the progress line and verify.json: what this run changes, '' for the default."""
        parts = []
        if not self.onednn:
            parts.append("oneDNN off")
        if self.intra_op_threads is not None:
            parts.append(f"{self.intra_op_threads} intra-op thread{'s' if self.intra_op_threads > 1 else ''}")
        return ", ".join(parts)

    def as_json(self) -> dict:
        return {"onednn": self.onednn, "intra_op_threads": self.intra_op_threads}


def available_cpus() -> int:
    """The CPUs this process (and so the oracle it starts) may run on: TF's default thread count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def spread_run(index: int, *, alternate_onednn: bool, cpus: int | None = None) -> OracleRun:
    """Oracle run `index` (2, 3, ...): alternating thread counts, and oneDNN when the oracle has it."""
    cpus = cpus or available_cpus()
    threads = 1 if index % 2 == 0 else 2 * cpus
    onednn = not alternate_onednn or index % 2 == 1
    return OracleRun(index, onednn=onednn, intra_op_threads=threads)
