"""CrossShardOptimizer: TPU gradient averaging expressed on tf.distribute's own all-reduce.

On a TPU, `CrossShardOptimizer` scales each shard's loss by 1/R (reduction MEAN) and sums the
gradients with `cross_replica_sum`. Under a tf.distribute replica context a v1 optimizer's
`apply_gradients` already SUM-reduces gradients across replicas (`merge_call` ->
`batch_reduce_to(SUM)`), so this class only scales the loss and delegates: adding another all-reduce
would count every gradient R times (docs/architecture.md, "Gradients on several replicas"). On one
replica it changes nothing, exactly like the legacy class on a one-core TPU.
"""

from __future__ import annotations

import tensorflow as tf

from estimator_bridge.runtime import unrun_train_ops

_Reduction = tf.compat.v1.losses.Reduction


def _num_replicas() -> int:
    context = tf.distribute.get_replica_context()
    if context is not None:
        return context.num_replicas_in_sync
    return tf.distribute.get_strategy().num_replicas_in_sync


class CrossShardOptimizer(tf.compat.v1.train.Optimizer):
    """Wraps a v1 optimizer so that R replicas train like one replica on the global batch.

    Args:
      opt: a `tf.compat.v1.train.Optimizer` (GradientDescent, Momentum, Adam, a subclass...).
      reduction: `tf.compat.v1.losses.Reduction.MEAN` (default: the replicas' gradients are
        averaged) or `SUM` (summed).
      name: the optimizer's name.
      group_assignment: accepted for compatibility; only `None` (all replicas in one group) is
        supported.

    Raises:
      ValueError: an unsupported reduction or a group_assignment.
      TypeError: `opt` is not a v1 Optimizer (e.g. a Keras optimizer).
    """

    def __init__(self, opt, reduction=_Reduction.MEAN, name="CrossShardOptimizer",
                 group_assignment=None):
        if reduction not in (_Reduction.SUM, _Reduction.MEAN):
            raise ValueError(f"Unsupported reduction: {reduction}. CrossShardOptimizer accepts "
                             "tf.compat.v1.losses.Reduction.MEAN or SUM.")
        if not isinstance(opt, tf.compat.v1.train.Optimizer):
            raise TypeError(
                "CrossShardOptimizer only works with tf.compat.v1.train.Optimizer and not "
                f"{type(opt).__name__} ({opt!r}). Wrap a v1 optimizer, e.g. "
                "tf.compat.v1.train.AdamOptimizer(...).")
        if group_assignment is not None:
            raise ValueError(
                f"CrossShardOptimizer group_assignment={group_assignment!r} is not supported by "
                "the bridge: gradients are reduced over all replicas. Pass group_assignment=None.")
        super().__init__(False, name)
        self._opt = opt
        self._reduction = reduction
        self._group_assignment = group_assignment

    def compute_gradients(self, loss, var_list=None, **kwargs):
        """The wrapped optimizer's gradients of loss/R (MEAN) or of loss (SUM), per replica.

        As on TPU, these are local, already-scaled gradients: user clipping between
        compute_gradients and apply_gradients acts on them.
        """
        num_replicas = _num_replicas()
        if num_replicas > 1 and self._reduction == _Reduction.MEAN:
            scale = 1.0 / num_replicas
            if callable(loss):
                unscaled = loss
                loss = lambda: unscaled() * scale  # noqa: E731
            else:
                loss = loss * scale
        return self._opt.compute_gradients(loss, var_list=var_list, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients summed over replicas (tf.distribute's SUM all-reduce).

        A v1 Optimizer's own apply_gradients sums them (merge_call); a subclass that overrides
        apply_gradients (BERT's AdamWeightDecayOptimizer) does not, so for those the sum is
        taken here, once, as TPU's cross_replica_sum did.
        """
        stand_in = unrun_train_ops.stand_in(name)
        if stand_in is not None:  # an EVAL/PREDICT model_fn's train_op on 2+ replicas: never runs
            return stand_in
        grads_and_vars = list(grads_and_vars)
        context = tf.distribute.get_replica_context()
        overrides = type(self._opt).apply_gradients is not tf.compat.v1.train.Optimizer.apply_gradients
        if overrides and context is not None and context.num_replicas_in_sync > 1:
            present = [i for i, (grad, _) in enumerate(grads_and_vars) if grad is not None]
            summed = context.all_reduce(tf.distribute.ReduceOp.SUM,
                                        [grads_and_vars[i][0] for i in present])
            for i, grad in zip(present, summed):
                grads_and_vars[i] = (grad, grads_and_vars[i][1])
        return self._opt.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self):
        return self._opt.variables()
