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

    The same holds for writers a model_fn opens (`writer = tf2.summary.create_file_writer(...)`,
    then `with tf.control_dependencies([writer.init()]), writer.as_default(): ...`). In TF1's graph `init()` was
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


class ModelFnSummaries:
    """The v1 summaries a TRAIN model_fn builds, written where and when TF 1.15 wrote them.

    TF 1.15's Estimator (and TPUEstimator's CPU path, use_tpu=False) ran `merge_all()` of the
    graph's SUMMARIES collection in its SummarySaverHook: in the train step's own `session.run`
    at the first step of every train() call and every `save_summary_steps` after it, written into
    model_dir at the global step read after that run. In a traced step a v1 summary op is a
    string tensor that nothing fetches. `collect()` takes the summaries model_fn added to the step's graph, `written_after()` merges
    them and writes the merged proto with the train step's writer when the step after the
    update is due; the due steps start at the variable `first_step`, which `start_call()` sets at
    the start of every train() call, as TF1's hook fired on its first step.

    Only what is fetched ran in TF1: a streaming metric whose update only a summary uses
    (`tf.summary.scalar("accuracy", tf.metrics.accuracy(...)[1])`) was updated at the due steps
    only. A traced step runs every stateful op, so such updates (`summary_only_updates`) are
    gated: they wait for the true side of a Switch on `due` and are dead on other steps, and a
    Merge joins the write's path and the not-due path (a dead input of a Merge does not kill it).
    """

    def __init__(self, writer, every_steps):
        self._writer = writer
        self._every = int(every_steps or 0)
        self._tensors = []
        self.first_step = None
        if self._every and writer is not None:
            with tf.init_scope():
                self.first_step = tf.Variable(1, dtype=tf.int64, trainable=False,
                                              name="model_fn_summaries_first_step")

    def start_call(self, start_step: int) -> None:
        """A train() call starts at `start_step`: its first step is due (TF1's new hook)."""
        if self.first_step is not None:
            self.first_step.assign(int(start_step) + 1)

    @contextmanager
    def collect(self):
        """Within: model_fn runs; the v1 summaries it adds to the graph are kept for the step."""
        graph = tf.compat.v1.get_default_graph()
        key = tf.compat.v1.GraphKeys.SUMMARIES
        before = [id(item) for item in graph.get_collection(key)]
        self._first_op = len(graph.get_operations())
        yield
        self._tensors = [item for item in graph.get_collection(key)
                         if id(item) not in before and isinstance(item, tf.Tensor)
                         and item.dtype == tf.string]

    def written_after(self, train_op, global_step, fetched=()):
        """The op writing the collected summaries at the step after `train_op`, or None.

        `fetched`: the step's other outputs (loss, hook tensors...), which run on every step.
        """
        if not self._tensors or self.first_step is None:
            return None
        graph = tf.compat.v1.get_default_graph()
        gated = summary_only_updates(graph.get_operations()[self._first_op:], self._tensors,
                                     [train_op] + list(fetched))
        with tf.control_dependencies([train_op]):
            # Read after the update, as TF1's hook read the global step after the run.
            step = tf.cast(global_step.read_value(), tf.int64)
        due = tf.logical_and(step >= self.first_step,
                             tf.equal(tf.math.floormod(step - self.first_step, self._every), 0))
        if not gated:
            merged = tf.compat.v1.summary.merge(self._tensors, name="model_fn_summaries")
            with self._writer.as_default(), tf.summary.record_if(due):
                return tf.summary.experimental.write_raw_pb(merged, step=step)
        # Pivots as TF1's cond made them: a control edge from the Switch itself is never dead,
        # one from an identity of its untaken output is.
        not_due, is_due = (tf.identity(side) for side in tf.raw_ops.Switch(data=step, pred=due))
        for op in gated:
            op._add_control_input(is_due.op)  # pylint: disable=protected-access
        merged = tf.compat.v1.summary.merge(self._tensors, name="model_fn_summaries")
        written = gen_summary_ops.write_raw_proto_summary(
            self._writer._resource, is_due, merged)  # pylint: disable=protected-access
        with tf.control_dependencies([written]):
            when_due = tf.identity(is_due)
        return tf.raw_ops.Merge(inputs=[when_due, not_due]).output


def _ancestors(tensors_or_ops, within: set) -> set:
    """Ids of the ops in `within` (ids) that the given tensors or ops depend on, themselves too."""
    seen = set()
    stack = [getattr(item, "op", item) for item in tensors_or_ops]
    while stack:
        op = stack.pop()
        if id(op) in seen or id(op) not in within:
            continue
        seen.add(id(op))
        stack.extend(tensor.op for tensor in op.inputs)
        stack.extend(op.control_inputs)
    return seen


def summary_only_updates(step_ops, summaries, fetched) -> list:
    """The stateful ops of `step_ops` that only `summaries` need, on resources nothing fetched uses.

    TF1 ran them only when the summaries were fetched (a streaming metric's update). An op whose
    resource an op the step's fetches need also uses is left alone (gating it would gate that op
    too: the traced step orders the uses of one resource). Other uses (the metric's unfetched
    value) die with it on steps that are not due; the Merge of `written_after` absorbs them.
    """
    within = {id(op) for op in step_ops}
    needed = _ancestors([item for item in tf.nest.flatten(fetched) if item is not None], within)
    summary_side = _ancestors(summaries, within) - needed
    updates = []
    for op in step_ops:
        if id(op) not in summary_side or not op._is_stateful:  # pylint: disable=protected-access
            continue
        handles = [tensor for tensor in op.inputs if tensor.dtype == tf.resource]
        if not handles or op.type == "ReadVariableOp":
            continue
        if not any(id(user) in needed for handle in handles for user in handle.consumers()):
            updates.append(op)
    return updates
