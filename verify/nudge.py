"""A start state moved by one ulp: how much a program amplifies a rounding difference.

A golden recorded on one CPU is a claim about every CPU only if the program does not amplify the
last bits in which CPUs differ (TF 1.15 orders its sums by the CPU's cache sizes). Intra-op thread
counts do not move a small convolutional program's sums, so they cannot show this; moving every
nonzero float of the start checkpoint by one ulp (up or down, seeded) does, and measures the same
order of effect: resnet_tpu at Nesterov lr 0.1 turned a 1-ulp nudge into 1.1e-5 at step 11 and
1.0 relative by step 40, as another CPU turned its kernels' last bits into 3.1e-1.

A Keras program starts from recorded weights (``keras_start.npz``, verify/keras_record.py), not a
checkpoint: `nudge_npz` moves those by the same rule, in numpy alone. tda_mnist_keras_to_tpu_2018
on TF 1.15: thread counts moved its results at most 1.0e-5, 1-ulp starts 1.0e-4..1.2e-4.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# Runs in a fresh interpreter: it builds a v1 graph, which must not share a process (and TF's
# global graph state) with a caller that runs eager code.
_NUDGE_PROGRAM = r'''
import sys
import numpy as np
import tensorflow as tf

source, target, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
reader = tf.train.load_checkpoint(source)
rng = np.random.RandomState(seed)
graph = tf.Graph()
with graph.as_default():
    variables = []
    for name, _ in sorted(reader.get_variable_to_shape_map().items()):
        value = reader.get_tensor(name)
        if value.dtype in (np.float32, np.float64) and value.size:
            direction = np.where(rng.rand(*value.shape) < 0.5, -np.inf, np.inf).astype(value.dtype)
            # zeros stay: one ulp of 0 is a denormal, which some CPUs flush
            value = np.where(value == 0, value, np.nextafter(value, direction)).astype(value.dtype)
        variables.append(tf.compat.v1.Variable(value, name=name))
    saver = tf.compat.v1.train.Saver(variables)
    with tf.compat.v1.Session() as session:
        session.run(tf.compat.v1.global_variables_initializer())
        saver.save(session, target, write_meta_graph=False)
'''


def nudge_checkpoint(source: Path, target: Path, *, seed: int = 0, timeout_s: float = 900) -> None:
    """Write checkpoint prefix `target`: `source`'s variables, each nonzero float moved one ulp.

    Any failure, a subprocess that outlives `timeout_s` included (TensorFlow's import alone takes
    minutes on a loaded machine), is a RuntimeError, which the pipeline turns into a progress note
    and an un-nudged start instead of a crashed verify.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        completed = subprocess.run([sys.executable, "-c", _NUDGE_PROGRAM, str(source), str(target), str(seed)],
                                   capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as error:
        raise RuntimeError(f"could not nudge checkpoint {source}: no answer within {timeout_s:g} s") from error
    if completed.returncode != 0:
        raise RuntimeError(f"could not nudge checkpoint {source}: {completed.stderr[-2000:]}")


def nudge_npz(source: Path, target: Path, *, seed: int = 0) -> None:
    """Write `target`: `source`'s arrays (a Keras start), each nonzero float moved one ulp.

    The rule of nudge_checkpoint: keys in sorted order draw from one RandomState(seed), one
    direction per element, zeros stay, dtypes kept; other arrays (the structure's JSON) are copied.
    A file numpy cannot read or write is a RuntimeError, as for a checkpoint.
    """
    import numpy as np

    try:
        with np.load(source) as saved:
            arrays = {key: saved[key] for key in saved.files}
        rng = np.random.RandomState(seed)
        for key in sorted(arrays):
            value = arrays[key]
            if value.dtype in (np.float32, np.float64) and value.size:
                direction = np.where(rng.rand(*value.shape) < 0.5, -np.inf, np.inf).astype(value.dtype)
                arrays[key] = np.where(value == 0, value, np.nextafter(value, direction)).astype(value.dtype)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as handle:  # a file, so that numpy adds no second suffix
            np.savez(handle, **arrays)
    except (OSError, ValueError) as error:
        raise RuntimeError(f"could not nudge Keras start weights {source}: {error}") from error
