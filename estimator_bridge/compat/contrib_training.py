"""`tf.contrib.training.create_train_op` and its gradient helpers: TF 1.15's code on current TF.

TPUEstimator model_fns of 2018-2020 build their train_op with `create_train_op(loss, optimizer,
...)` instead of `optimizer.minimize`, because it also runs the UPDATE_OPS (batch norm's moving
averages) and can clip or summarise the gradients. This is TF 1.15's
tensorflow/contrib/training/python/training/training.py, line for line, with its signatures
(checked in the oracle with inspect.signature):

* `create_train_op` returns the loss (checked for inf/nan unless check_numerics=False) that
  depends on the optimizer's apply_gradients, which depends on every update op: a Tensor, not
  an Operation, as in TF 1.15; the global step is incremented by apply_gradients;
* `add_gradients_summaries`, `clip_gradient_norms`, `clip_gradient_norms_fn`,
  `multiply_gradients`.

Tensors and variables are compared by identity where TF 1.15 compared them with `==`/`in`
(TF 1.x equality was identity; TF 2's `==` is elementwise, and a migrated program has no switch
turning it back). The gradient summaries are v1 summary ops in the model_fn's graph: TF 1.15's
Estimator wrote them with its SummarySaverHook on the CPU path; the bridge, like TF 1.15 on a
TPU, does not write in-model v1 summaries (docs/core.md). The runner serves this module as
`tf.contrib.training`'s functions; the codemod rewrites `tf.contrib.training.X` to
`estimator_bridge.compat.contrib_training.X`.
"""

from __future__ import annotations

import tensorflow as tf

tf1 = tf.compat.v1

__all__ = ["add_gradients_summaries", "clip_gradient_norms", "clip_gradient_norms_fn",
           "create_train_op", "multiply_gradients"]


def _contains(items, item) -> bool:
    """`item in items` as TF 1.x answered it for tensors and variables: by identity."""
    return any(element is item for element in items)


def _with_dependencies(dependencies, output_tensor):
    """TF 1.15's control_flow_ops.with_dependencies: `output_tensor` after `dependencies`.

    (The graph's colocate_with, which TF 1.15's ops.colocate_with called: the public
    tf.compat.v1.colocate_with logs a deprecation notice on every call.)
    """
    if tf.executing_eagerly():
        return output_tensor
    with tf1.name_scope(None, "control_dependency", list(dependencies) + [output_tensor]) as name:
        with tf1.get_default_graph().colocate_with(output_tensor):
            with tf.control_dependencies(dependencies):
                output_tensor = tf.convert_to_tensor(output_tensor)
                return tf.identity(output_tensor, name=name)


def add_gradients_summaries(grads_and_vars):
    """Add summaries to gradients.

    Args:
      grads_and_vars: A list of gradient to variable pairs (tuples).

    Returns:
      The list of created summaries.
    """
    summaries = []
    for grad, var in grads_and_vars:
        if grad is not None:
            if isinstance(grad, tf.IndexedSlices):
                grad_values = grad.values
            else:
                grad_values = grad
            summaries.append(
                tf1.summary.histogram(var.op.name + "_gradient", grad_values))
            summaries.append(
                tf1.summary.scalar(var.op.name + "_gradient_norm",
                                   tf.linalg.global_norm([grad_values])))
        else:
            tf1.logging.info("Var %s has no gradient", var.op.name)

    return summaries


def clip_gradient_norms(gradients_to_variables, max_norm):
    """Clips the gradients by the given value.

    Args:
      gradients_to_variables: A list of gradient to variable pairs (tuples).
      max_norm: the maximum norm value.

    Returns:
      A list of clipped gradient to variable pairs.
    """
    clipped_grads_and_vars = []
    for grad, var in gradients_to_variables:
        if grad is not None:
            if isinstance(grad, tf.IndexedSlices):
                tmp = tf.clip_by_norm(grad.values, max_norm)
                grad = tf.IndexedSlices(tmp, grad.indices, grad.dense_shape)
            else:
                grad = tf.clip_by_norm(grad, max_norm)
        clipped_grads_and_vars.append((grad, var))
    return clipped_grads_and_vars


def clip_gradient_norms_fn(max_norm):
    """Returns a `transform_grads_fn` function for gradient clipping."""

    def clip_norms(gradients_to_variables):
        return clip_gradient_norms(gradients_to_variables, max_norm)

    return clip_norms


def _multiplier_key(gradient_multipliers, var):
    """TF 1.15's `var if var in gradient_multipliers else var.op.name` (None: neither is a key).

    A dict keyed by variables looked them up by identity in TF 1.x; TF 2 variables are
    unhashable outside a bridge model_fn, so the keys are searched by identity here.
    """
    for key in gradient_multipliers:
        if key is var:
            return key
    name = var.op.name
    return name if name in gradient_multipliers else None


def multiply_gradients(grads_and_vars, gradient_multipliers):
    """Multiply specified gradients.

    Args:
      grads_and_vars: A list of gradient to variable pairs (tuples).
      gradient_multipliers: A map from either `Variables` or `Variable` op names
        to the coefficient by which the associated gradient should be scaled.

    Returns:
      The updated list of gradient to variable pairs.

    Raises:
      ValueError: If `grads_and_vars` is not a list or if `gradient_multipliers`
      is empty or None or if `gradient_multipliers` is not a dictionary.
    """
    if not isinstance(grads_and_vars, list):
        raise ValueError("`grads_and_vars` must be a list.")
    if not gradient_multipliers:
        raise ValueError("`gradient_multipliers` is empty.")
    if not isinstance(gradient_multipliers, dict):
        raise ValueError("`gradient_multipliers` must be a dict.")

    multiplied_grads_and_vars = []
    for grad, var in grads_and_vars:
        key = _multiplier_key(gradient_multipliers, var)
        if key is not None:
            if grad is None:
                raise ValueError("Requested multiple of `None` gradient.")

            if isinstance(grad, tf.IndexedSlices):
                tmp = grad.values * tf.convert_to_tensor(gradient_multipliers[key], dtype=grad.dtype)
                grad = tf.IndexedSlices(tmp, grad.indices, grad.dense_shape)
            else:
                grad *= tf.convert_to_tensor(gradient_multipliers[key], dtype=grad.dtype)
        multiplied_grads_and_vars.append((grad, var))
    return multiplied_grads_and_vars


_USE_GLOBAL_STEP = 0


def create_train_op(total_loss,
                    optimizer,
                    global_step=_USE_GLOBAL_STEP,
                    update_ops=None,
                    variables_to_train=None,
                    transform_grads_fn=None,
                    summarize_gradients=False,
                    gate_gradients=tf1.train.Optimizer.GATE_OP,
                    aggregation_method=None,
                    colocate_gradients_with_ops=False,
                    check_numerics=True):
    """Creates an `Operation` that evaluates the gradients and returns the loss.

    Args:
      total_loss: A `Tensor` representing the total loss.
      optimizer: A tf.Optimizer to use for computing the gradients.
      global_step: A `Tensor` representing the global step variable. If left as
        `_USE_GLOBAL_STEP`, then tf.contrib.framework.global_step() is used.
      update_ops: An optional list of updates to execute. If `update_ops` is
        `None`, then the update ops are set to the contents of the
        `tf.GraphKeys.UPDATE_OPS` collection. If `update_ops` is not `None`, but
        it doesn't contain all of the update ops in `tf.GraphKeys.UPDATE_OPS`, a
        warning will be displayed.
      variables_to_train: an optional list of variables to train. If None, it will
        default to all tf.compat.v1.trainable_variables().
      transform_grads_fn: A function which takes a single argument, a list of
        gradient to variable pairs (tuples), performs any requested gradient
        updates, such as gradient clipping or multipliers, and returns the updated
        list.
      summarize_gradients: Whether or not add summaries for each gradient.
      gate_gradients: How to gate the computation of gradients. See tf.Optimizer.
      aggregation_method: Specifies the method used to combine gradient terms.
        Valid values are defined in the class `AggregationMethod`.
      colocate_gradients_with_ops: Whether or not to try colocating the gradients
        with the ops that generated them.
      check_numerics: Whether or not we apply check_numerics.

    Returns:
      A `Tensor` that when evaluated, computes the gradients and returns the total
        loss value.
    """
    if global_step is _USE_GLOBAL_STEP:
        global_step = tf1.train.get_or_create_global_step()

    # Update ops use GraphKeys.UPDATE_OPS collection if update_ops is None. (TF 1.15 made sets
    # of both; lists compared by identity keep the same members without hashing tensors.)
    global_update_ops = _distinct(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS))
    if update_ops is None:
        update_ops = global_update_ops
    else:
        update_ops = _distinct(update_ops)
    if not all(_contains(update_ops, op) for op in global_update_ops):
        tf1.logging.warning("update_ops in create_train_op does not contain all the "
                            "update_ops in GraphKeys.UPDATE_OPS")

    # Make sure update_ops are computed before total_loss.
    if update_ops:
        with tf.control_dependencies(update_ops):
            barrier = tf.no_op(name="update_barrier")
        total_loss = _with_dependencies([barrier], total_loss)

    if variables_to_train is None:
        # Default to tf.compat.v1.trainable_variables()
        variables_to_train = tf1.trainable_variables()
    else:
        # Make sure that variables_to_train are in
        # tf.compat.v1.trainable_variables()
        for v in variables_to_train:
            assert v.trainable or _contains(tf1.trainable_variables(), v)

    assert variables_to_train

    # Create the gradients. Note that apply_gradients adds the gradient
    # computation to the current graph.
    grads = optimizer.compute_gradients(
        total_loss,
        variables_to_train,
        gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops)

    if transform_grads_fn:
        grads = transform_grads_fn(grads)

    # Summarize gradients.
    if summarize_gradients:
        with tf1.name_scope("summarize_grads"):
            add_gradients_summaries(grads)

    # Create gradient updates.
    grad_updates = optimizer.apply_gradients(grads, global_step=global_step)

    with tf1.name_scope("train_op"):
        # Make sure total_loss is valid.
        if check_numerics:
            total_loss = tf.debugging.check_numerics(total_loss, "LossTensor is inf or nan")

        # Ensure the train_tensor computes grad_updates.
        train_op = _with_dependencies([grad_updates], total_loss)

    # Add the operation used for training to the 'train_op' collection
    train_ops = tf1.get_collection_ref(tf1.GraphKeys.TRAIN_OP)
    if not _contains(train_ops, train_op):
        train_ops.append(train_op)

    return train_op


def _distinct(items):
    """`set(items)` as TF 1.x built it (members by identity), as a list in first-seen order."""
    distinct = []
    for item in items:
        if not _contains(distinct, item):
            distinct.append(item)
    return distinct
