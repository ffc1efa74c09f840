"""Stress program for input release (issue 16): failed and abandoned loops, then exit.

Each round, as a notebook or a hyper-parameter sweep does in one process: a train() that stops
with NanLossDuringTrainingError (the exception kept alive, as a notebook keeps the last one),
train() again, evaluate(), and a predict() generator abandoned after one element. The same two
estimators live for the whole run. Then the program exits.

A stall anywhere is turned into a failing exit with every thread's stack by faulthandler: each
round must end within ROUND_BUDGET_SECS, the exit within EXIT_BUDGET_SECS. Prints one line per
round (`round N SECONDS`) and `rounds done SECONDS`.

Usage: python -m tests.reliability.input_release_program MODEL_DIR [ROUNDS]
"""

from __future__ import annotations

import faulthandler
import sys
import time

# Measured on 2 shared cores: a round takes 0.5-1.5 s and the exit about 2 s. Before the fix
# the exit stalled for 60 s (lost wake-up of tf.data's autotuning thread, estimator_bridge/runtime/input_release.py).
ROUND_BUDGET_SECS = 120
EXIT_BUDGET_SECS = 20
STARTUP_BUDGET_SECS = 300


def nan_after_step_2(labels, logits):
    import numpy as np
    import tensorflow as tf

    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
    step = tf.compat.v1.train.get_global_step()
    return tf.compat.v1.where(step < 2, loss, loss * np.float32("nan"))


def main(model_dir: str, rounds: int) -> None:
    faulthandler.dump_traceback_later(STARTUP_BUDGET_SECS, exit=True)
    import estimator_bridge as tpu
    from tests.estimator_bridge import tiny

    def with_predictions(features, labels, logits, loss):
        return {"predictions": {"logits": logits}}

    def estimator(name, **model_kwargs):
        config = tpu.RunConfig(model_dir=f"{model_dir}/{name}", save_checkpoints_steps=1000,
                               tpu_config=tpu.TPUConfig(iterations_per_loop=2))
        return tpu.TPUEstimator(
            model_fn=tiny.make_model_fn(spec_kwargs=with_predictions, **model_kwargs),
            config=config, use_tpu=False, train_batch_size=16, eval_batch_size=16,
            predict_batch_size=16)

    diverging = estimator("diverging", loss_fn=nan_after_step_2)
    healthy = estimator("healthy")
    kept_errors = []
    started = time.monotonic()
    for round_index in range(rounds):
        faulthandler.dump_traceback_later(ROUND_BUDGET_SECS, exit=True)
        round_started = time.monotonic()
        try:
            diverging.train(tiny.input_fn, steps=20)
            raise AssertionError("train() did not raise NanLossDuringTrainingError")
        except tpu.NanLossDuringTrainingError as error:
            kept_errors.append(error)
        healthy.train(tiny.input_fn, steps=4)
        healthy.evaluate(tiny.input_fn, steps=2)
        predictions = healthy.predict(tiny.input_fn)
        next(predictions)
        del predictions
        print(f"round {round_index} {time.monotonic() - round_started:.2f}", flush=True)
    print(f"rounds done {time.monotonic() - started:.2f}", flush=True)
    faulthandler.dump_traceback_later(EXIT_BUDGET_SECS, exit=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30)
