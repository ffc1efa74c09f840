"""The training process the reliability tests kill: tiny.py's model, trained to `max_steps`.

Run as `python -m tests.reliability.training_program MODEL_DIR MAX_STEPS ITERATIONS_PER_LOOP
SAVE_CHECKPOINTS_STEPS KEEP_CHECKPOINT_MAX`. Prints the bridge's per-loop log line
(`train | step: N | ...`) to stdout, unbuffered, so a test knows training is under way before
it sends SIGKILL or SIGTERM. A preempted run exits with TrainingPreempted's code (uncaught).

`RELIABILITY_SIGKILL_AT=<moment>:<n>` makes the process SIGKILL itself at the n-th occurrence of
a chosen moment of a checkpoint write, the worst places for a crash: `delete` just after the
first file of an old checkpoint is removed, `state_rename` just before the new `checkpoint` state
file replaces the old one, `state_written` just after.
"""

from __future__ import annotations

import logging
import os
import signal
import sys

import tensorflow as tf
from tensorflow.python.lib.io import file_io

from tests.estimator_bridge import tiny


def sigkill_at(moment: str, occurrence: int) -> None:
    """Wraps the file operation of `moment` so its `occurrence`-th call ends in SIGKILL."""
    calls = {"count": 0}

    def due():
        calls["count"] += 1
        return calls["count"] == occurrence

    def die():
        os.kill(os.getpid(), signal.SIGKILL)

    if moment == "delete":
        remove = tf.io.gfile.remove

        def remove_then_die(path):
            remove(path)
            if due():
                die()

        tf.io.gfile.remove = remove_then_die
        return
    rename = file_io.rename

    def rename_around_state_file(old, new, overwrite=False):
        if os.path.basename(new) != "checkpoint":
            return rename(old, new, overwrite)
        if moment == "state_rename" and due():
            die()
        rename(old, new, overwrite)
        if moment == "state_written" and due():
            die()

    file_io.rename = rename_around_state_file


def main(argv):
    model_dir, max_steps, iterations_per_loop, save_checkpoints_steps, keep = argv
    if os.environ.get("RELIABILITY_SIGKILL_AT"):
        moment, occurrence = os.environ["RELIABILITY_SIGKILL_AT"].split(":")
        sigkill_at(moment, int(occurrence))
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    bridge_logger = logging.getLogger("estimator_bridge")
    bridge_logger.addHandler(handler)
    bridge_logger.setLevel(logging.INFO)
    estimator = tiny.make_estimator(
        model_dir, iterations_per_loop=int(iterations_per_loop),
        save_checkpoints_steps=int(save_checkpoints_steps),
        keep_checkpoint_max=int(keep), save_summary_steps=None)
    estimator.train(tiny.input_fn, max_steps=int(max_steps))
    print("finished", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
