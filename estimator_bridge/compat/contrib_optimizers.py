"""TF 1.15's tf.contrib optimizer wrappers, on current TensorFlow's v1 optimizers.

- `clip_gradients_by_norm(optimizer, clip_norm)` (tf.contrib.estimator; TF 1.15:
  tensorflow_estimator/contrib/estimator/python/estimator/extenders.py): a `tf.compat.v1.train.Optimizer`
  that clips the gradients by their global norm before the wrapped optimizer applies them, named
  'ClipByNorm' + the wrapped optimizer's name;
- `NadamOptimizer` (tf.contrib.opt; TF 1.15: contrib/opt/python/training/nadam_optimizer.py): Adam
  with Nesterov momentum;
- `LazyAdamOptimizer` (tf.contrib.opt; TF 1.15: contrib/opt/python/training/lazy_adam_optimizer.py):
  Adam whose sparse updates touch only the moment rows of the indices in the batch;
- `LARSOptimizer` (tf.contrib.opt; TF 1.15: contrib/opt/python/training/lars_optimizer.py): momentum with
  a layer-wise trust ratio, the large-batch TPU ResNet optimizer; TensorFlow, Keras 3 and
  tensorflow-addons have no LARS.

All are TF 1.15's code line for line (same ops in the same order, same slot names), on
`tf.compat.v1.train`, so a TF1 model_fn using them trains as it did on TF 1.15
(tests/estimator_bridge/test_compat_contrib_optimizers.py holds them to TF 1.15).
"""

from __future__ import annotations

import tensorflow as tf

tf1 = tf.compat.v1


# ----------------------------------------------------------------------------- tf.contrib.estimator


class _TransformGradients(tf1.train.Optimizer):
    """TF 1.15's extenders._TransformGradients: applies `transform_grads_fn` to the
    (gradient, variable) pairs, then the wrapped optimizer."""

    def __init__(self, optimizer, transform_grads_fn, name=None):
        super().__init__(use_locking=False, name=name or optimizer.get_name())
        self._optimizer = optimizer
        self._transform_grads_fn = transform_grads_fn

    def compute_gradients(self, *args, **kwargs):
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = self._transform_grads_fn(grads_and_vars)
        return self._optimizer.apply_gradients(grads_and_vars, global_step, name)

    def get_slot(self, *args, **kwargs):
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._optimizer.get_slot_names(*args, **kwargs)


def clip_gradients_by_norm(optimizer, clip_norm):
    """An optimizer that clips gradients by their global norm `clip_norm` before applying them
    with `optimizer` (a `tf.compat.v1.train.Optimizer`), as tf.contrib.estimator's did."""
    def clip_grads(grads_and_vars):
        gradients, variables = zip(*grads_and_vars)
        gradients = tf.clip_by_global_norm(gradients, clip_norm)[0]
        return list(zip(gradients, variables))
    return _TransformGradients(optimizer=optimizer, transform_grads_fn=clip_grads,
                               name="ClipByNorm" + optimizer.get_name())


# ----------------------------------------------------------------------------- tf.contrib.opt


class LazyAdamOptimizer(tf1.train.AdamOptimizer):
    """tf.contrib.opt.LazyAdamOptimizer: Adam whose sparse updates (embedding lookups) update the
    first and second moments only at the indices present in the gradient. Dense gradients are
    plain Adam. Same constructor as `tf.compat.v1.train.AdamOptimizer`."""

    def _lr_and_hyper(self, var):
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators()
        beta1_power = tf.cast(beta1_power, dtype)
        beta2_power = tf.cast(beta2_power, dtype)
        lr_t = tf.cast(self._lr_t, dtype)
        beta1_t = tf.cast(self._beta1_t, dtype)
        beta2_t = tf.cast(self._beta2_t, dtype)
        epsilon_t = tf.cast(self._epsilon_t, dtype)
        lr = (lr_t * tf.sqrt(1 - beta2_power) / (1 - beta1_power))
        return lr, beta1_t, beta2_t, epsilon_t

    def _apply_sparse(self, grad, var):
        lr, beta1_t, beta2_t, epsilon_t = self._lr_and_hyper(var)
        m = self.get_slot(var, "m")
        m_t = tf1.scatter_update(m, grad.indices,
                                 beta1_t * tf.gather(m, grad.indices) + (1 - beta1_t) * grad.values,
                                 use_locking=self._use_locking)
        v = self.get_slot(var, "v")
        v_t = tf1.scatter_update(v, grad.indices,
                                 beta2_t * tf.gather(v, grad.indices) + (1 - beta2_t) * tf.square(grad.values),
                                 use_locking=self._use_locking)
        m_t_slice = tf.gather(m_t, grad.indices)
        v_t_slice = tf.gather(v_t, grad.indices)
        denominator_slice = tf.sqrt(v_t_slice) + epsilon_t
        var_update = tf1.scatter_sub(var, grad.indices, lr * m_t_slice / denominator_slice,
                                     use_locking=self._use_locking)
        return tf.group(var_update, m_t, v_t)

    def _resource_apply_sparse(self, grad, var, indices):
        from tensorflow.python.ops import resource_variable_ops  # noqa: PLC0415 (TF 1.15's raw scatter ops)

        lr, beta1_t, beta2_t, epsilon_t = self._lr_and_hyper(var)
        m = self.get_slot(var, "m")
        m_t_slice = beta1_t * tf.gather(m, indices) + (1 - beta1_t) * grad
        m_update_op = resource_variable_ops.resource_scatter_update(m.handle, indices, m_t_slice)
        v = self.get_slot(var, "v")
        v_t_slice = beta2_t * tf.gather(v, indices) + (1 - beta2_t) * tf.square(grad)
        v_update_op = resource_variable_ops.resource_scatter_update(v.handle, indices, v_t_slice)
        var_slice = lr * m_t_slice / (tf.sqrt(v_t_slice) + epsilon_t)
        var_update_op = resource_variable_ops.resource_scatter_sub(var.handle, indices, var_slice)
        return tf.group(var_update_op, m_update_op, v_update_op)


class NadamOptimizer(tf1.train.AdamOptimizer):
    """tf.contrib.opt.NadamOptimizer (TF 1.15: contrib/opt/python/training/nadam_optimizer.py):
    Adam with Nesterov momentum (Dozat, 2015). Dense updates are the fused ApplyAdam kernel with
    `use_nesterov=True`; sparse updates use m_bar = (1 - beta1) g + beta1 m_t. Same constructor,
    slots (m, v) and beta power accumulators as `tf.compat.v1.train.AdamOptimizer`."""

    def _cast_hyper(self, dtype):
        beta1_power, beta2_power = self._get_beta_accumulators()
        return [tf.cast(value, dtype) for value in (beta1_power, beta2_power, self._lr_t,
                                                    self._beta1_t, self._beta2_t, self._epsilon_t)]

    def _apply_dense(self, grad, var):
        from tensorflow.python.ops import gen_training_ops  # noqa: PLC0415 (TF 1.15's fused kernel)

        return gen_training_ops.apply_adam(
            var, self.get_slot(var, "m"), self.get_slot(var, "v"),
            *self._cast_hyper(var.dtype.base_dtype), grad, use_locking=self._use_locking,
            use_nesterov=True).op

    def _resource_apply_dense(self, grad, var):
        from tensorflow.python.ops import gen_training_ops  # noqa: PLC0415 (TF 1.15's fused kernel)

        return gen_training_ops.resource_apply_adam(
            var.handle, self.get_slot(var, "m").handle, self.get_slot(var, "v").handle,
            *self._cast_hyper(grad.dtype.base_dtype), grad, use_locking=self._use_locking,
            use_nesterov=True)

    def _apply_sparse_shared(self, grad, var, indices, scatter_add):
        beta1_power, beta2_power, lr_t, beta1_t, beta2_t, epsilon_t = self._cast_hyper(
            var.dtype.base_dtype)
        lr = (lr_t * tf.sqrt(1 - beta2_power) / (1 - beta1_power))
        m = self.get_slot(var, "m")
        m_scaled_g_values = grad * (1 - beta1_t)
        m_t = tf1.assign(m, m * beta1_t, use_locking=self._use_locking)
        with tf.control_dependencies([m_t]):
            m_t = scatter_add(m, indices, m_scaled_g_values)
            m_bar = m_scaled_g_values + beta1_t * tf.gather(m_t, indices)
        v = self.get_slot(var, "v")
        v_scaled_g_values = (grad * grad) * (1 - beta2_t)
        v_t = tf1.assign(v, v * beta2_t, use_locking=self._use_locking)
        with tf.control_dependencies([v_t]):
            v_t = scatter_add(v, indices, v_scaled_g_values)
        v_sqrt = tf.sqrt(tf.gather(v_t, indices))
        var_update = scatter_add(var, indices, -lr * m_bar / (v_sqrt + epsilon_t))
        return tf.group(*[var_update, m_bar, v_t])


class LARSOptimizer(tf1.train.Optimizer):
    """tf.contrib.opt.LARSOptimizer (TF 1.15: contrib/opt/python/training/lars_optimizer.py), line for
    line: for each dense variable not matched by `skip_list`, the learning rate is scaled by the trust
    ratio eeta * |w| / (|g| + weight_decay * |w| + epsilon) (1 where |w| or |g| is 0) and
    weight_decay * w is added to the gradient, then the fused momentum kernel applies lr * g with
    learning rate 1; sparse gradients take plain momentum. Slot "momentum"."""

    def __init__(self, learning_rate, momentum=0.9, weight_decay=0.0001, eeta=0.001, epsilon=0.0,
                 name="LARSOptimizer", skip_list=None, use_nesterov=False):
        if momentum < 0.0:
            raise ValueError("momentum should be positive: %s" % momentum)
        if weight_decay < 0.0:
            raise ValueError("weight_decay should be positive: %s" % weight_decay)
        super().__init__(use_locking=False, name=name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._weight_decay = weight_decay
        self._eeta = eeta
        self._epsilon = epsilon
        self._name = name
        self._skip_list = skip_list
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def compute_lr(self, grad, var):
        scaled_lr = self._learning_rate
        if self._skip_list is None or not any(v in var.name for v in self._skip_list):
            w_norm = tf.norm(var, ord=2)
            g_norm = tf.norm(grad, ord=2)
            trust_ratio = tf1.where(
                tf.greater(w_norm, 0),
                tf1.where(tf.greater(g_norm, 0),
                          (self._eeta * w_norm / (g_norm + self._weight_decay * w_norm + self._epsilon)), 1.0),
                1.0)
            scaled_lr = self._learning_rate * trust_ratio
            grad = grad + self._weight_decay * var
        return scaled_lr, grad

    def _apply_dense(self, grad, var):
        from tensorflow.python.ops import gen_training_ops  # noqa: PLC0415 (TF 1.15's fused kernel)

        scaled_lr, grad = self.compute_lr(grad, var)
        return gen_training_ops.apply_momentum(
            var, self.get_slot(var, "momentum"), tf.cast(1.0, var.dtype.base_dtype), grad * scaled_lr,
            self._momentum, use_locking=False, use_nesterov=self._use_nesterov)

    def _resource_apply_dense(self, grad, var):
        from tensorflow.python.ops import gen_training_ops  # noqa: PLC0415 (TF 1.15's fused kernel)

        scaled_lr, grad = self.compute_lr(grad, var)
        return gen_training_ops.resource_apply_momentum(
            var.handle, self.get_slot(var, "momentum").handle, tf.cast(1.0, var.dtype.base_dtype),
            grad * scaled_lr, self._momentum, use_locking=False, use_nesterov=self._use_nesterov)

    def _apply_sparse(self, grad, var):
        from tensorflow.python.ops import gen_training_ops  # noqa: PLC0415

        return gen_training_ops.sparse_apply_momentum(
            var, self.get_slot(var, "momentum"), tf.cast(self._learning_rate_tensor, var.dtype.base_dtype),
            grad.values, grad.indices, tf.cast(self._momentum_tensor, var.dtype.base_dtype),
            use_locking=self._use_locking, use_nesterov=self._use_nesterov).op

    def _resource_apply_sparse(self, grad, var, indices):
        from tensorflow.python.ops import gen_training_ops  # noqa: PLC0415

        return gen_training_ops.resource_sparse_apply_momentum(
            var.handle, self.get_slot(var, "momentum").handle, tf.cast(self._learning_rate_tensor, grad.dtype),
            grad, indices, tf.cast(self._momentum_tensor, grad.dtype), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov)

    def _prepare(self):
        learning_rate = self._learning_rate
        if callable(learning_rate):
            learning_rate = learning_rate()
        self._learning_rate_tensor = tf.convert_to_tensor(learning_rate, name="learning_rate")
        momentum = self._momentum
        if callable(momentum):
            momentum = momentum()
        self._momentum_tensor = tf.convert_to_tensor(momentum, name="momentum")
