"""TF 1.15's CPU-path reading of the global step inside a train step, in a traced step.

TF1's Estimator ran `session.run([train_op, loss, host_call tensors, hook tensors])`: a read of
the global step that model_fn made after `optimizer.minimize(loss, global_step)` (ResNet's,
EfficientNet's `gs_t = tf.reshape(global_step, [1])` for host_call summaries) had no edge to the
increment, and the executor ran it first: it saw the step's starting value (measured on TF
1.15: 12 runs of 12, iterations_per_loop 1, 2 and 100, the host_call summary of the first step
is written at step 0). A traced step orders stateful ops in program order, so the same read sees
the incremented value and every host_call summary lands one step late (issue 17).

`reads_at_step_start()` restores TF1's reading on the CPU path: it takes a snapshot of the global
step before model_fn runs and, once model_fn returned, points every read of the global step
that (a) was made after the step's increment and (b) has no data or control path from that
increment (TF1 raced it) at the snapshot. A read the program ordered itself (`with
control_dependencies([train_op]): global_step.read_value()`) keeps the incremented value, as in
TF1. On TPU cores the bridge keeps program order: TPUEstimator's compiled step read in program
order there (docs/core.md).
"""

from __future__ import annotations

import contextlib

import tensorflow as tf

_WRITES = frozenset({"AssignAddVariableOp", "AssignSubVariableOp", "AssignVariableOp"})


def _handles(graph, variable, strategy):
    """The variable's handles as this graph sees them (captures; one per local replica)."""
    components = strategy.experimental_local_results(variable) if strategy else (variable,)
    handles = set()
    for component in components:
        handle = component.handle
        if hasattr(graph, "capture") and (isinstance(handle, tf.__internal__.EagerTensor)
                                          or handle.graph is not graph):
            handle = graph.capture(handle)
        handles.add(id(handle))
    return handles


def _ancestors(op, stop_after):
    """Every op `op` depends on through inputs and control inputs, created after index."""
    seen, stack = set(), [op]
    while stack:
        current = stack.pop()
        for parent in [t.op for t in current.inputs] + list(current.control_inputs):
            if id(parent) not in seen and parent._id > stop_after:  # noqa: SLF001
                seen.add(id(parent))
                stack.append(parent)
    return seen


@contextlib.contextmanager
def reads_at_step_start(global_step, strategy=None):
    """Within: model_fn's unordered global-step reads after the increment see the step start.

    Args:
      global_step: the model's global step variable (distributed or not).
      strategy: its tf.distribute strategy (for the per-replica handles), or None.
    """
    graph = tf.compat.v1.get_default_graph()
    start = tf.identity(global_step.read_value(), name="global_step_at_step_start")
    first_id = start.op._id  # noqa: SLF001 (ops of this step have larger ids)
    handles = _handles(graph, global_step, strategy)
    yield start
    new_ops = [op for op in graph.get_operations() if op._id > first_id]  # noqa: SLF001
    writes = [op for op in new_ops if op.type in _WRITES and id(op.inputs[0]) in handles]
    if not writes:
        return
    first_write = min(op._id for op in writes)  # noqa: SLF001
    write_ids = {id(op) for op in writes}
    for read in new_ops:
        if (read.type != "ReadVariableOp" or id(read.inputs[0]) not in handles
                or read._id < first_write):  # noqa: SLF001
            continue
        if write_ids & _ancestors(read, first_id):
            continue  # ordered after the increment by the program itself: TF1 saw it too
        value = read.outputs[0]
        for consumer in list(value.consumers()):
            for index, tensor in enumerate(consumer.inputs):
                if tensor is value:
                    consumer._update_input(index, start)  # noqa: SLF001
