"""TensorBoard event files in TF1 Estimator's format: `simple_value` scalars in model_dir.

TF1's SummarySaverHook wrote `loss` every `save_summary_steps` steps, starting with the first
step of each train() call (measured on TF 1.15: steps 1, 11, 21... for save_summary_steps=10,
every step for 1); StepCounterHook wrote `global_step/sec`; evaluate() wrote its metrics into
`model_dir/eval`. The bridge writes the same tags at the same steps, as `Summary.Value` protos
with `simple_value`, so `tf.compat.v1.train.summary_iterator` reads both the same way.
"""

from __future__ import annotations

import tensorflow as tf
from tensorflow.core.framework import summary_pb2


class ScalarWriter:
    """Writes TF1-style scalar summaries into one directory's event file."""

    def __init__(self, logdir: str):
        try:
            self.writer = tf.summary.create_file_writer(logdir)
        except (tf.errors.FailedPreconditionError, tf.errors.PermissionDeniedError) as error:
            # The first write into model_dir of a train()/evaluate(): say which directory and how
            # to fix it instead of the summary op's "Not a directory".
            raise type(error)(None, None, (
                f"model_dir {logdir!r} is not a writable directory ({error.message}). "
                "Checkpoints and summaries go there: pass a model_dir you can create and write, "
                "and that is not an existing file.")) from error

    def scalars(self, step: int, values: dict) -> None:
        summary = summary_pb2.Summary(value=[
            summary_pb2.Summary.Value(tag=tag, simple_value=float(value))
            for tag, value in values.items()])
        with self.writer.as_default():
            tf.summary.experimental.write_raw_pb(summary.SerializeToString(), step=int(step))

    def flush(self) -> None:
        self.writer.flush()

    def close(self) -> None:
        self.writer.close()


class EveryNSteps:
    """TF1's SecondOrStepTimer by steps: fires on the first step seen, then N steps later."""

    def __init__(self, every_steps):
        self._every = every_steps
        self._last = None

    def should_fire(self, step: int) -> bool:
        if not self._every:
            return False
        return self._last is None or step >= self._last + self._every

    def fired(self, step: int) -> None:
        self._last = step
