"""Replica steps built with TF1 fetch semantics: only what the step returns runs.

A `tf.function` runs every stateful op it traces; TF1's `Session.run` ran only what was
fetched. Evaluation and prediction must behave like TF1 (a train_op that model_fn builds in
every mode must not train while evaluating), so their replica steps are built with
`tf.compat.v1.wrap_function`, which prunes the graph to the returned tensors, and then called
inside the traced loop.
"""

from __future__ import annotations

import tensorflow as tf

from estimator_bridge.runtime import unrun_train_ops


def call_pruned(graph_fn, structure) -> list:
    """Builds `graph_fn(*structure)` in a TF1-style graph and calls it on `structure`'s tensors.

    Args:
      graph_fn: `(*structure) -> list of tensors`, the fetches; it is traced once, on
        placeholders with `structure`'s shapes and dtypes.
      structure: a tuple of (nests of) tensors of the enclosing trace, e.g. (features, labels).

    Returns:
      The fetched tensors, in graph_fn's order, as tensors of the enclosing trace.
    """
    return list(pruned_step(graph_fn, structure)(*tf.nest.flatten(structure)))


def pruned_step(graph_fn, structure):
    """`graph_fn(*structure)` built once in a TF1-style graph and pruned to its fetches: a
    concrete function of `structure`'s flat tensors, callable from any enclosing trace whose
    inputs have the same shapes and dtypes (predict.py reuses it for its fused loop)."""
    flat_inputs = tf.nest.flatten(structure)

    def graph_step(*flat):
        return graph_fn(*tf.nest.pack_sequence_as(structure, list(flat)))

    with unrun_train_ops.building_pruned_step():
        step = tf.compat.v1.wrap_function(
            graph_step, [tf.TensorSpec(tensor.shape, tensor.dtype) for tensor in flat_inputs])
    # Pruned structurally, not left to the runtime: a function's unreachable stateful ops are
    # only dropped by Grappler, and a program may switch it off (EfficientNet's RunConfig sets
    # disable_meta_optimizer): its scaffold Saver's RestoreV2 then ran in every eval step.
    return step.prune(feeds=list(step.inputs[:len(flat_inputs)]), fetches=list(step.outputs))


def call_model_fn(*, cache, model_function, features, labels):
    """model_fn in a fresh trace of the variable cache: TF1 names, and a global step to read."""
    cache.begin_trace()
    with cache.scope():
        tf.compat.v1.train.get_or_create_global_step()
        return model_function(features, labels)
