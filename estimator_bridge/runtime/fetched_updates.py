"""A train step updates only the variables its fetches need, as TF 1.15's session.run(train_op) did.

Why: a `tf.function` runs every stateful op it traces (automatic control dependencies); TF1's
Session ran only what the fetched ops reached. A model_fn whose train_op does not wait for the
batch-norm updates in UPDATE_OPS (`train_op = optimizer.minimize(loss)` alone) never moved its
moving averages on TF 1.15, and did on the bridge. Eval and predict steps are pruned TF1 graphs
(graph_step.py); a train step on several replicas cannot be built that way (`merge_call` refuses a
graph defined inside the replica function), so instead the variable updates that model_fn built and
the step's fetches do not reach are left out of the automatic control dependencies: nothing then
depends on them and the function pruning of Grappler (on unless a program disables its meta
optimizer) drops them, as Session's pruning did.

Only variable writes (assignments, optimizer applies, scatters) and a Saver's checkpoint reads and
writes are left out: other stateful ops of model_fn (tf.summary v2 writes, prints, queues) keep
running as before.
"""

from __future__ import annotations

import weakref

import tensorflow as tf
from tensorflow.python.framework import auto_control_deps

_VARIABLE_WRITES = ("AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp")
_VARIABLE_WRITE_PREFIXES = ("ResourceApply", "ResourceSparseApply", "ResourceScatter")
# A tf.compat.v1.train.Saver built in model_fn (`slim.assign_from_checkpoint_fn` in a fine-tuning
# model_fn's restore hook) adds its save and restore ops to the traced step; TF 1.15 ran them only
# when the Saver was called, the bridge ran SaveV2 at every step (writing `model.*` files into the
# working folder). A hook's `saver.restore(session, path)` is the bridge's own (hook_session.py).
_CHECKPOINT_IO = ("SaveV2", "RestoreV2", "MergeV2Checkpoints", "Save", "SaveSlices", "Restore",
                  "RestoreSlice")

_unfetched = weakref.WeakSet()


def is_variable_write(op) -> bool:
    return op.type in _VARIABLE_WRITES or op.type.startswith(_VARIABLE_WRITE_PREFIXES)


def runs_only_when_fetched(op) -> bool:
    """A variable write or a checkpoint read/write: left out of the step unless a fetch reaches it."""
    return is_variable_write(op) or op.type in _CHECKPOINT_IO


def leave_out_unfetched_updates(graph, first_op: int, fetches) -> list:
    """Marks the variable writes and checkpoint ops among `graph`'s ops from index `first_op` on that `fetches`
    (a nest of tensors and ops) do not reach through data or control edges; returns them.

    Call it before the function that `graph` traces returns (automatic control dependencies are
    added when it does).
    """
    _install()
    window = graph.get_operations()[first_op:]
    in_window = set(window)
    reached = set()
    pending = [item if isinstance(item, tf.Operation) else item.op
               for item in tf.nest.flatten(fetches, expand_composites=True) if item is not None]
    while pending:
        op = pending.pop()
        if op in reached or op not in in_window:
            continue
        reached.add(op)
        pending.extend(tensor.op for tensor in op.inputs)
        pending.extend(op.control_inputs)
    left_out = [op for op in window if op not in reached and runs_only_when_fetched(op)]
    _unfetched.update(left_out)
    return left_out


def _install() -> None:
    """Wraps automatic control dependencies' two questions about an op: a left-out write is
    neither stateful (must run) nor a use of its variable (ordered with the other uses)."""
    if getattr(auto_control_deps.op_is_stateful, "_estimator_bridge_original", None) is not None:
        return
    is_stateful, resource_inputs = auto_control_deps.op_is_stateful, auto_control_deps._get_resource_inputs

    def op_is_stateful(op):
        return False if op in _unfetched else is_stateful(op)

    def get_resource_inputs(op):
        return iter(()) if op in _unfetched else resource_inputs(op)

    op_is_stateful._estimator_bridge_original = is_stateful
    auto_control_deps.op_is_stateful = op_is_stateful
    auto_control_deps._get_resource_inputs = get_resource_inputs
