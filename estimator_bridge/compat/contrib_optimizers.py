"""tf.contrib's optimizers as `tf.compat.v1.train.Optimizer`s on TensorFlow's own update kernels.

No maintained package serves them for v1 optimizers on current TF (tf-slim has none; Keras'
optimizers are another API and tensorflow-addons is gone), so they are written here:
- `clip_gradients_by_norm(optimizer, clip_norm)` (tf.contrib.estimator): `optimizer` applying
  gradients clipped to a global norm, named 'ClipByNorm' + its name;
- `NadamOptimizer`: Adam with Nesterov momentum; dense updates are the `ApplyAdam` kernel with
  `use_nesterov`, sparse ones update the touched rows with the same Nesterov step;
- `LazyAdamOptimizer`: Adam whose sparse updates touch only the moments' rows in the batch;
- `LARSOptimizer`: momentum with a layer-wise trust ratio (large-batch TPU ResNets).
Slot names, accumulators and arithmetic are TF 1.15's, so checkpoints and trained values match:
tests/migrate/test_contrib_equivalents.py (fixtures contrib_equivalents, nadam, lars) and
test_real_patterns.py's unet3d case hold them to TF 1.15 on ref and resource variables.
"""

from __future__ import annotations

import tensorflow as tf

tf1 = tf.compat.v1


class _ClipByGlobalNorm(tf1.train.Optimizer):
    """`optimizer` (a v1 Optimizer) whose gradients are clipped by their global norm first."""

    def __init__(self, optimizer, clip_norm):
        super().__init__(use_locking=False, name="ClipByNorm" + optimizer.get_name())
        self._optimizer = optimizer
        self._clip_norm = clip_norm

    def compute_gradients(self, *args, **kwargs):
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        gradients, variables = zip(*grads_and_vars)
        clipped, _ = tf.clip_by_global_norm(gradients, self._clip_norm)
        return self._optimizer.apply_gradients(list(zip(clipped, variables)), global_step, name)

    def get_slot(self, *args, **kwargs):
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._optimizer.get_slot_names(*args, **kwargs)


def clip_gradients_by_norm(optimizer, clip_norm):
    """tf.contrib.estimator.clip_gradients_by_norm: `optimizer` with gradients clipped to `clip_norm`."""
    return _ClipByGlobalNorm(optimizer, clip_norm)


class _AdamOnRows(tf1.train.AdamOptimizer):
    """AdamOptimizer (its constructor, slots m and v, beta power accumulators) whose sparse update
    a subclass defines per touched row; AdamOptimizer routes ref and resource variables to it."""

    def _hyper(self, dtype):
        """(bias-corrected learning rate, beta1, beta2, epsilon) in `dtype`."""
        beta1_power, beta2_power = (tf.cast(power, dtype) for power in self._get_beta_accumulators())
        lr, beta1, beta2, epsilon = (tf.cast(value, dtype) for value in
                                     (self._lr_t, self._beta1_t, self._beta2_t, self._epsilon_t))
        return lr * tf.sqrt(1 - beta2_power) / (1 - beta1_power), beta1, beta2, epsilon


class NadamOptimizer(_AdamOnRows):
    """tf.contrib.opt.NadamOptimizer: Adam with Nesterov momentum (Dozat, 2015)."""

    def _kernel_arguments(self, dtype):
        beta1_power, beta2_power = self._get_beta_accumulators()
        names = ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")
        values = (beta1_power, beta2_power, self._lr_t, self._beta1_t, self._beta2_t, self._epsilon_t)
        return dict({name: tf.cast(value, dtype) for name, value in zip(names, values)},
                    use_locking=self._use_locking, use_nesterov=True)

    def _apply_dense(self, grad, var):
        return tf.raw_ops.ApplyAdam(var=var, m=self.get_slot(var, "m"), v=self.get_slot(var, "v"),
                                    grad=grad, **self._kernel_arguments(var.dtype.base_dtype)).op

    def _resource_apply_dense(self, grad, var):
        return tf.raw_ops.ResourceApplyAdam(
            var=var.handle, m=self.get_slot(var, "m").handle, v=self.get_slot(var, "v").handle,
            grad=grad, **self._kernel_arguments(grad.dtype.base_dtype))

    def _apply_sparse_shared(self, grad, var, indices, scatter_add):
        # Both moments decay everywhere and take the gradient at its rows; the variable moves at
        # those rows only, by the Nesterov estimate (1 - beta1) g + beta1 m.
        lr, beta1, beta2, epsilon = self._hyper(var.dtype.base_dtype)
        scaled_grad = grad * (1 - beta1)
        moments = []
        for slot, decay, increment in (("m", beta1, scaled_grad), ("v", beta2, (grad * grad) * (1 - beta2))):
            moment = self.get_slot(var, slot)
            decayed = tf1.assign(moment, moment * decay, use_locking=self._use_locking)
            with tf.control_dependencies([decayed]):
                moments.append(scatter_add(moment, indices, increment))
        m, v = moments
        nesterov_m = scaled_grad + beta1 * tf.gather(m, indices)
        step = -lr * nesterov_m / (tf.sqrt(tf.gather(v, indices)) + epsilon)
        return tf.group(scatter_add(var, indices, step), nesterov_m, v)


class LazyAdamOptimizer(_AdamOnRows):
    """tf.contrib.opt.LazyAdamOptimizer: Adam whose sparse updates (embedding lookups) change the
    moments only at the rows in the gradient; dense gradients take plain Adam."""

    def _apply_sparse_shared(self, grad, var, indices, scatter_add):
        del scatter_add  # the moments' rows are replaced, not added to
        lr, beta1, beta2, epsilon = self._hyper(var.dtype.base_dtype)
        rows = {}
        for slot, decay, increment in (("m", beta1, grad), ("v", beta2, tf.square(grad))):
            moment = self.get_slot(var, slot)
            rows[slot] = decay * tf.gather(moment, indices) + (1 - decay) * increment
            rows[slot + "_update"] = tf1.scatter_update(moment, indices, rows[slot],
                                                        use_locking=self._use_locking)
        step = lr * rows["m"] / (tf.sqrt(rows["v"]) + epsilon)
        return tf.group(tf1.scatter_sub(var, indices, step, use_locking=self._use_locking),
                        rows["m_update"], rows["v_update"])


class LARSOptimizer(tf1.train.MomentumOptimizer):
    """tf.contrib.opt.LARSOptimizer (You et al., 2017): momentum whose dense step for each variable
    not named in `skip_list` is scaled by the trust ratio eeta |w| / (|g| + weight_decay |w| +
    epsilon) (1 where |w| or |g| is 0), with weight_decay w added to the gradient. The momentum
    kernel runs with learning rate 1 on lr * ratio * g, so the slot 'momentum' accumulates scaled
    steps. Sparse gradients take plain momentum (MomentumOptimizer's path)."""

    def __init__(self, learning_rate, momentum=0.9, weight_decay=0.0001, eeta=0.001, epsilon=0.0,
                 name="LARSOptimizer", skip_list=None, use_nesterov=False):
        if momentum < 0.0:
            raise ValueError("momentum should be positive: %s" % momentum)
        if weight_decay < 0.0:
            raise ValueError("weight_decay should be positive: %s" % weight_decay)
        super().__init__(learning_rate, momentum, use_locking=False, name=name, use_nesterov=use_nesterov)
        self._weight_decay = weight_decay
        self._eeta = eeta
        self._epsilon = epsilon
        self._skip_list = skip_list

    def _scaled_step(self, grad, var):
        """lr * trust ratio * (grad + weight_decay * var), or lr * grad for a skipped variable."""
        lr = tf.cast(self._learning_rate_tensor, var.dtype.base_dtype)
        if self._skip_list is not None and any(name in var.name for name in self._skip_list):
            return grad * lr
        w_norm = tf.norm(var, ord=2)
        g_norm = tf.norm(grad, ord=2)
        ratio = self._eeta * w_norm / (g_norm + self._weight_decay * w_norm + self._epsilon)
        ratio = tf.where(w_norm > 0, tf.where(g_norm > 0, ratio, 1.0), 1.0)
        return (grad + self._weight_decay * var) * (lr * ratio)

    def _momentum_arguments(self, var):
        dtype = var.dtype.base_dtype
        return dict(lr=tf.constant(1.0, dtype), momentum=tf.cast(self._momentum_tensor, dtype),
                    use_locking=self._use_locking, use_nesterov=self._use_nesterov)

    def _apply_dense(self, grad, var):
        return tf.raw_ops.ApplyMomentum(var=var, accum=self.get_slot(var, "momentum"),
                                        grad=self._scaled_step(grad, var), **self._momentum_arguments(var)).op

    def _resource_apply_dense(self, grad, var):
        return tf.raw_ops.ResourceApplyMomentum(
            var=var.handle, accum=self.get_slot(var, "momentum").handle,
            grad=self._scaled_step(grad, var), **self._momentum_arguments(var))
