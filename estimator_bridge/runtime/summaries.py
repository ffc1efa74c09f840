"""TensorBoard event files in TF1 Estimator's format: `simple_value` scalars in model_dir.

TF1's SummarySaverHook wrote `loss` every `save_summary_steps` steps, starting with the first
step of each train() call (measured on TF 1.15: steps 1, 11, 21... for save_summary_steps=10,
every step for 1); StepCounterHook wrote `global_step/sec` (its cadence: step_rate.py);
evaluate() wrote its metrics into `model_dir/eval`. The bridge writes the same tags at the same
steps, as `Summary.Value` protos with `simple_value`, so `tf.compat.v1.train.summary_iterator`
reads both the same way.
"""

from __future__ import annotations

import threading
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


def _initialized_in_graph():
    """`init()` of a writer TF2 created (and initialized) eagerly: nothing left to run."""
    if tf.executing_eagerly():
        return None
    return tf.no_op(name="summary_writer_initialized")


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

    The same holds for writers a model_fn opens (google-research/simclr's model.py, 2020: `writer
    = tf2.summary.create_file_writer(model_dir)` in TRAIN, then `with tf.control_dependencies(
    [writer.init()]), writer.as_default(): tf2.summary.scalar(...)`). In TF1's graph `init()` was
    the writer's create op; TF2 has already run it eagerly (init_scope) and returns None, which
    `control_dependencies` refuses: such a writer's `init()` gives a no-op inside the trace.

    A model_fn runs once per replica, in MirroredStrategy's replica threads, which can pause
    inside the block (merge_call) while another enters it: the writer class is patched once
    (`_install`) and the blocks only push and pop the list that collects, by identity.
    """
    with _lock:
        _install()
        _collecting.append(keep)
    try:
        yield keep
    finally:
        with _lock:
            index = max(i for i, known in enumerate(_collecting) if known is keep)
            del _collecting[index]


_lock = threading.Lock()
_collecting: list = []  # the keep lists of the open writers_kept_in blocks, innermost last


def _install() -> None:
    writer_class = summary_ops_v2._ResourceSummaryWriter  # pylint: disable=protected-access
    original_init = writer_class.__init__
    if getattr(original_init, "_estimator_bridge_keeps", False):
        return

    def init_and_keep(writer, *args, **kwargs):
        original_init(writer, *args, **kwargs)
        with _lock:
            keep = _collecting[-1] if _collecting else None
        if keep is None:
            return
        if writer._init_op is None:  # pylint: disable=protected-access  (created eagerly)
            writer.init = _initialized_in_graph
        keep.append(writer)

    init_and_keep._estimator_bridge_keeps = True
    writer_class.__init__ = init_and_keep
