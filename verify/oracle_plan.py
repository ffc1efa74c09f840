"""How the oracle's spread runs differ from its first run, so that its spread measures rounding.

A program the oracle repeats to the last bit has shown nothing about its sensitivity to float
rounding, and a current-TF side never rounds exactly as TF 1.15 did. tensorflow/tpu's
mnist_tpuestimator notebook (bias-free dense layer fed by constant pixels, batch norm, Adam) is
such a program: at 18 steps TF 1.15 repeated itself exactly, so every number was held to the flat
training rtol, and both sides failed on an eval loss 5.9e-4 away -- while TF 1.15 itself moves
that loss by 2.1e-4 on 1 CPU instead of 2. Weights whose gradient is zero in exact arithmetic get
rounding noise, which Adam turns into full steps.

So each spread run changes what rounds, never what is computed:
  * its start state: every nonzero float of run 1's ``model.ckpt-0``, or of a Keras program's
    recorded start weights (``keras_start.npz``), moved by one ulp, up or down (verify/nudge.py, a
    seed per run). This is what
    reaches a program's amplification of rounding: on that notebook's program (tests/verify/
    programs/adam_batch_norm.py, 18 steps) TF 1.15's eval loss moved 1.1e-4, 2.6e-4 and 8.4e-4
    under three nudges, where TF 2.21 lands 1.4e-3 away and a thread count moves it 2.9e-6; and
    on a convolutional program that amplifies nothing thread counts move nothing at all. On the
    Keras program tda_mnist_keras_to_tpu_2018, thread counts moved TF 1.15's results at most 1.0e-5,
    1-ulp starts 1.0e-4..1.2e-4 on the number where every side was 1.3e-4 away;
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
    nudge_seed: int | None = None  # the start state moved one ulp with this seed (None: as run 1's)

    def describe(self) -> str:
        """For the progress line and verify.json: what this run changes, '' for the default."""
        parts = []
        if not self.onednn:
            parts.append("oneDNN off")
        if self.intra_op_threads is not None:
            parts.append(f"{self.intra_op_threads} intra-op thread{'s' if self.intra_op_threads > 1 else ''}")
        if self.nudge_seed is not None:
            parts.append("start weights moved 1 ulp")
        return ", ".join(parts)

    def as_json(self) -> dict:
        return {"onednn": self.onednn, "intra_op_threads": self.intra_op_threads, "nudge_seed": self.nudge_seed}


def available_cpus() -> int:
    """The CPUs this process (and so the oracle it starts) may run on: TF's default thread count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def spread_run(index: int, *, alternate_onednn: bool, cpus: int | None = None,
               recorded_start: bool = False) -> OracleRun:
    """Oracle run `index` (2, 3, ...): alternating thread counts, oneDNN when the oracle has it, and
    a nudged start (seed = index) when the program starts from a state run 1 recorded (its
    ``model.ckpt-0`` or a Keras program's ``keras_start.npz``)."""
    cpus = cpus or available_cpus()
    threads = 1 if index % 2 == 0 else 2 * cpus
    onednn = not alternate_onednn or index % 2 == 1
    return OracleRun(index, onednn=onednn, intra_op_threads=threads, nudge_seed=index if recorded_start else None)
