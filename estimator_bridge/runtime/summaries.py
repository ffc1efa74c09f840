"""TensorBoard event files in TF1 Estimator's format: `simple_value` scalars in model_dir.

TF1's SummarySaverHook wrote `loss` every `save_summary_steps` steps, starting with the first
step of each train() call (measured on TF 1.15: steps 1, 11, 21... for save_summary_steps=10,
every step for 1); StepCounterHook wrote `global_step/sec` (its cadence: step_rate.py);
evaluate() wrote its metrics into `model_dir/eval`. The bridge writes the same tags at the same
steps, as `Summary.Value` protos with `simple_value`, so `tf.compat.v1.train.summary_iterator`
reads both the same way.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import summary_pb2
from tensorflow.python.ops import gen_summary_ops
from tensorflow.python.ops import summary_ops_v2


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
        """One event at `step` holding every value; written by the writer's raw op.

        `tf.summary.experimental.write_raw_pb` takes ~240 us (default-writer context, step
        and record_if resolution, each an eager op), the op it ends in ~50 us (measured on
        TF 2.21); this runs after every loop of 100 steps with TF1's rate cadence, where it
        was 3% of the loop. Writers without the resource handle take the public path.
        """
        summary = summary_pb2.Summary(value=[
            summary_pb2.Summary.Value(tag=tag, simple_value=float(value))
            for tag, value in values.items()]).SerializeToString()
        resource = getattr(self.writer, "_resource", None)
        if resource is not None:
            gen_summary_ops.write_raw_proto_summary(resource, np.int64(step), summary)
            return
        with self.writer.as_default():
            tf.summary.experimental.write_raw_pb(summary, step=int(step))

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


@contextmanager
def writers_kept_in(keep: list):
    """Summary writers created inside the block are appended to `keep` (kept alive by it).

    TF1-era host_call fns open their writer inside the fn (`with tf.contrib.summary.
    create_file_writer(model_dir).as_default(): ...`, migrated to `tf.summary.
    create_file_writer`). TF1's `_OutfeedHostCallHook` kept such writers for the whole session.
    TF2 creates the writer eagerly while the loop is traced (init_scope) and deletes its
    resource when the Python object is collected, right after the fn returns; the traced loop
    then fails with "Resource .../SummaryWriterInterface does not exist". The train loop holds
    the writers its host_call created for as long as the loop lives, and flushes them after
    every loop, as the hook did between session runs. Every TF2 writer is a
    `_ResourceSummaryWriter` (the trackable one subclasses it), whichever alias created it.
    """
    writer_class = summary_ops_v2._ResourceSummaryWriter  # pylint: disable=protected-access
    original_init = writer_class.__init__

    def init_and_keep(writer, *args, **kwargs):
        original_init(writer, *args, **kwargs)
        keep.append(writer)

    writer_class.__init__ = init_and_keep
    try:
        yield keep
    finally:
        writer_class.__init__ = original_init
