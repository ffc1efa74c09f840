"""The training process the reliability tests kill: tiny.py's model, trained to `max_steps`.

Run as `python -m tests.reliability.training_program MODEL_DIR MAX_STEPS ITERATIONS_PER_LOOP
SAVE_CHECKPOINTS_STEPS KEEP_CHECKPOINT_MAX`. Prints the bridge's per-loop log line
(`train | step: N | ...`) to stdout, unbuffered, so a test knows training is under way before
it sends SIGKILL or SIGTERM. A preempted run exits with TrainingPreempted's code (uncaught).
"""

from __future__ import annotations

import logging
import sys

from tests.estimator_bridge import tiny


def main(argv):
    model_dir, max_steps, iterations_per_loop, save_checkpoints_steps, keep = argv
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
