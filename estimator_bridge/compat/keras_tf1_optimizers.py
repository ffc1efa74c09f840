"""TF 1.x's `tf.train.*Optimizer`s as Keras 3 optimizers, for TF 1.x Keras code migrated to Keras 3.

TF 1.x Keras took `tf.train.*Optimizer` objects in `compile`; Keras 3 takes only its own, and its
own compute other numbers (measured against TF 1.15: docs/results/2026-11-28-keras3-tf1-optimizers.md):

* RMSProp: TF 1.x starts its mean-square slot at 1, Keras 3's RMSprop at 0 (the first steps are
  about 1 / sqrt(1 - decay) times larger in Keras 3).
* Sparse gradients (an Embedding's `IndexedSlices`): TF 1.x summed the rows that share an index,
  then updated only the rows the batch touched (Adam excepted: it decays both moments of every
  row). Keras 3's optimizers square the rows before summing them, and (Momentum, Adadelta, Ftrl)
  update the rows the batch did not touch.

The classes here keep TF 1.x's slots, initial values, argument names and defaults, and run the
TensorFlow training kernels TF 1.x's optimizers ran (`tf.raw_ops.ResourceApply*`); sparse Adam,
which had no kernel in TF 1.x, is written out in the same order. XLA (a TPU, `jit_compile`) has no
sparse training kernels: a step XLA compiles applies a sparse gradient dense, as TF 1.x did on a TPU
(its CrossShardOptimizer summed gradients across cores with `cross_replica_sum`, which returns a
dense tensor). TensorFlow backend only (the backend of TF 1.x programs). Each class is registered
for Keras' saving (package `estimator_bridge`).
"""

from __future__ import annotations

import keras
import tensorflow as tf

PACKAGE = "estimator_bridge"


def unique_rows(gradient: tf.IndexedSlices) -> tuple[tf.Tensor, tf.Tensor]:
    """(values, indices) of a sparse gradient, rows that share an index summed (as TF 1.x applied it)."""
    indices, positions = tf.unique(gradient.indices)
    values = tf.math.unsorted_segment_sum(gradient.values, positions, tf.shape(indices)[0])
    return values, indices


def compiled_by_xla() -> bool:
    """Whether the step being traced is compiled by XLA (Keras' `jit_compile`, a TPU replica)."""
    from tensorflow.python.ops import control_flow_util  # TensorFlow has no public way to ask

    return control_flow_util.GraphOrParentsInXlaContext(tf.compat.v1.get_default_graph())


def rows_or_dense(gradient):
    """A sparse gradient as (values, indices) with its rows summed, or None where it must go dense."""
    if not isinstance(gradient, tf.IndexedSlices) or compiled_by_xla():
        return None
    return unique_rows(gradient)


class TF1KernelOptimizer(keras.optimizers.Optimizer):
    """A Keras 3 optimizer whose step is one TF training kernel per variable, dense or by rows.

    Subclasses give `SLOTS` (kernel argument -> (slot name, initializer)), `HYPERPARAMETERS`
    (kernel argument -> attribute holding its value), `OPTIONS` (kernel argument -> attribute,
    passed as a Python value), and `kernels()`: the (dense, sparse) `tf.raw_ops` functions, called
    with `var`, the slots' handles, `lr`, `grad` (and `indices`).
    """

    SLOTS: dict[str, tuple[str, object]] = {}
    HYPERPARAMETERS: dict[str, str] = {}
    OPTIONS: dict[str, str] = {}

    def kernels(self):
        raise NotImplementedError

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._slot_variables = {argument: self.add_optimizer_variables(var_list, name, initializer=initializer)
                                for argument, (name, initializer) in self.slots().items()}

    def slots(self) -> dict[str, tuple[str, object]]:
        return dict(self.SLOTS)

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        dtype = variable.dtype
        arguments = {argument: slots[index].handle for argument, slots in self._slot_variables.items()}
        arguments.update({argument: tf.cast(getattr(self, name), dtype)
                          for argument, name in self.HYPERPARAMETERS.items()})
        arguments.update({argument: getattr(self, name) for argument, name in self.OPTIONS.items()})
        dense, sparse = self.kernels()
        rows = rows_or_dense(gradient)
        if rows is not None:
            values, indices = rows
            sparse(var=variable.handle, lr=tf.cast(learning_rate, dtype), grad=tf.cast(values, dtype),
                   indices=indices, **arguments)
        else:
            dense(var=variable.handle, lr=tf.cast(learning_rate, dtype),
                  grad=tf.cast(tf.convert_to_tensor(gradient), dtype), **arguments)

    def get_config(self):
        config = super().get_config()
        config.update({name: getattr(self, name) for name in self.own_arguments()})
        return config

    def own_arguments(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([*self.HYPERPARAMETERS.values(), *self.OPTIONS.values()]))


@keras.saving.register_keras_serializable(package=PACKAGE)
class RMSProp(TF1KernelOptimizer):
    """`tf.compat.v1.train.RMSPropOptimizer`: its `rms` slot starts at 1, its momentum slot always kept.

    ms <- ms + (g^2 - ms)(1 - decay); mom <- momentum mom + lr g / sqrt(ms + epsilon); var <- var - mom
    (centered: ms - mg^2 under the square root, mg the running mean of g).
    """

    HYPERPARAMETERS = {"rho": "decay", "momentum": "momentum", "epsilon": "epsilon"}

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, centered=False, name="RMSProp",
                 **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.decay = decay
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def slots(self):
        slots = {"ms": ("rms", "ones"), "mom": ("momentum", "zeros")}
        if self.centered:
            slots["mg"] = ("mg", "zeros")
        return slots

    def kernels(self):
        if self.centered:
            return tf.raw_ops.ResourceApplyCenteredRMSProp, tf.raw_ops.ResourceSparseApplyCenteredRMSProp
        return tf.raw_ops.ResourceApplyRMSProp, tf.raw_ops.ResourceSparseApplyRMSProp

    def own_arguments(self):
        return ("decay", "momentum", "epsilon", "centered")


@keras.saving.register_keras_serializable(package=PACKAGE)
class Momentum(TF1KernelOptimizer):
    """`tf.compat.v1.train.MomentumOptimizer`: accum <- momentum accum + g; var <- var - lr accum
    (nesterov: var <- var - lr g - lr momentum accum); by rows, the other rows keep still."""

    SLOTS = {"accum": ("momentum", "zeros")}
    HYPERPARAMETERS = {"momentum": "momentum"}
    OPTIONS = {"use_nesterov": "use_nesterov"}

    def __init__(self, learning_rate, momentum, name="Momentum", use_nesterov=False, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.momentum = momentum
        self.use_nesterov = use_nesterov

    def kernels(self):
        return tf.raw_ops.ResourceApplyMomentum, tf.raw_ops.ResourceSparseApplyMomentum


@keras.saving.register_keras_serializable(package=PACKAGE)
class Adagrad(TF1KernelOptimizer):
    """`tf.compat.v1.train.AdagradOptimizer`: accum <- accum + g^2; var <- var - lr g / sqrt(accum)."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, name="Adagrad", **kwargs):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value

    def slots(self):
        return {"accum": ("accumulator", keras.initializers.Constant(self.initial_accumulator_value))}

    def kernels(self):
        return tf.raw_ops.ResourceApplyAdagrad, tf.raw_ops.ResourceSparseApplyAdagrad

    def own_arguments(self):
        return ("initial_accumulator_value",)


@keras.saving.register_keras_serializable(package=PACKAGE)
class Adadelta(TF1KernelOptimizer):
    """`tf.compat.v1.train.AdadeltaOptimizer` (TF 1.x's defaults: learning_rate 0.001, epsilon 1e-8)."""

    SLOTS = {"accum": ("accum", "zeros"), "accum_update": ("accum_update", "zeros")}
    HYPERPARAMETERS = {"rho": "rho", "epsilon": "epsilon"}

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, name="Adadelta", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def kernels(self):
        return tf.raw_ops.ResourceApplyAdadelta, tf.raw_ops.ResourceSparseApplyAdadelta


@keras.saving.register_keras_serializable(package=PACKAGE)
class Ftrl(TF1KernelOptimizer):
    """`tf.compat.v1.train.FtrlOptimizer`: TF 1.x's Ftrl kernels (FtrlV2 with an L2 shrinkage);
    by rows, the rows the batch did not touch keep their values."""

    HYPERPARAMETERS = {"lr_power": "learning_rate_power", "l1": "l1_regularization_strength",
                       "l2": "l2_regularization_strength"}

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, name="Ftrl",
                 l2_shrinkage_regularization_strength=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        if l2_shrinkage_regularization_strength > 0.0:
            self.HYPERPARAMETERS = {**self.HYPERPARAMETERS, "l2_shrinkage": "l2_shrinkage_regularization_strength"}

    def slots(self):
        return {"accum": ("accum", keras.initializers.Constant(self.initial_accumulator_value)),
                "linear": ("linear", "zeros")}

    def kernels(self):
        if self.l2_shrinkage_regularization_strength > 0.0:
            return tf.raw_ops.ResourceApplyFtrlV2, tf.raw_ops.ResourceSparseApplyFtrlV2
        return tf.raw_ops.ResourceApplyFtrl, tf.raw_ops.ResourceSparseApplyFtrl

    def own_arguments(self):
        return ("learning_rate_power", "initial_accumulator_value", "l1_regularization_strength",
                "l2_regularization_strength", "l2_shrinkage_regularization_strength")


@keras.saving.register_keras_serializable(package=PACKAGE)
class Adam(TF1KernelOptimizer):
    """`tf.compat.v1.train.AdamOptimizer`: beta1^t and beta2^t kept as running products (TF 1.x's
    `beta1_power`, `beta2_power`, multiplied after each step), not recomputed from the step count.

    By rows: both moments of every row decay, the batch's rows are added, every row moves
    (TF 1.x's sparse Adam, which had no kernel).
    """

    SLOTS = {"m": ("m", "zeros"), "v": ("v", "zeros")}
    HYPERPARAMETERS = {"beta1": "beta1", "beta2": "beta2", "epsilon": "epsilon"}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, name="Adam", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        # Read by every variable's step, advanced once per step (`only_first_replica`, like `iterations`).
        self._beta_powers = [
            self.add_variable((), initializer=keras.initializers.Constant(beta), dtype="float32",
                              aggregation="only_first_replica", name=name)
            for beta, name in ((self.beta1, "beta1_power"), (self.beta2, "beta2_power"))]

    def kernels(self):
        return tf.raw_ops.ResourceApplyAdam, None

    def _powers(self, dtype):
        """beta1^t and beta2^t of this step: tf.train's running products."""
        return tuple(tf.cast(power, dtype) for power in self._beta_powers)

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        beta1_power, beta2_power = self._powers(dtype)
        rows = rows_or_dense(gradient)
        if rows is None:
            index = self._get_variable_index(variable)
            tf.raw_ops.ResourceApplyAdam(
                var=variable.handle, m=self._slot_variables["m"][index].handle,
                v=self._slot_variables["v"][index].handle, beta1_power=beta1_power, beta2_power=beta2_power,
                lr=tf.cast(learning_rate, dtype), beta1=tf.cast(self.beta1, dtype), beta2=tf.cast(self.beta2, dtype),
                epsilon=tf.cast(self.epsilon, dtype), grad=tf.cast(tf.convert_to_tensor(gradient), dtype))
            return
        self._sparse_step(rows, variable, tf.cast(learning_rate, dtype), beta1_power, beta2_power)

    def _sparse_step(self, rows, variable, learning_rate, beta1_power, beta2_power):
        index = self._get_variable_index(variable)
        dtype = variable.dtype
        beta1, beta2, epsilon = (tf.cast(value, dtype) for value in (self.beta1, self.beta2, self.epsilon))
        values, indices = rows
        values = tf.cast(values, dtype)
        step_size = learning_rate * tf.sqrt(1 - beta2_power) / (1 - beta1_power)
        m = self._slot_variables["m"][index].value
        v = self._slot_variables["v"][index].value
        m.assign(m * beta1)
        m.scatter_add(tf.IndexedSlices(values * (1 - beta1), indices))
        v.assign(v * beta2)
        v.scatter_add(tf.IndexedSlices((values * values) * (1 - beta2), indices))
        variable.assign_sub(step_size * m.read_value() / (tf.sqrt(v.read_value()) + epsilon))

    def _backend_update_step(self, grads, trainable_variables, learning_rate):
        super()._backend_update_step(grads, trainable_variables, learning_rate)
        for power, beta in zip(self._beta_powers, (self.beta1, self.beta2)):
            power.assign(power * beta)


@keras.saving.register_keras_serializable(package=PACKAGE)
class KerasAdam(Adam):
    """TF 1.x's Keras `Adam` (`tf.keras.optimizers.Adam`, what `compile(optimizer='adam')` meant there):
    the `ApplyAdam` kernel with Keras' argument names and defaults (epsilon 1e-7), and beta1^t,
    beta2^t computed as pow(beta, step) at every step, as Keras' OptimizerV2 did.

    Not Keras 3's `Adam`, which forms its decay rates in float64 (1 - 0.999 = 0.001, the kernel's
    float32 1 - 0.999 = 0.00099998713: a 1.3e-5 larger second moment, every step 6.5e-6 shorter), nor
    tf.train's running products of the betas (one ulp of beta2^3 is 1e-5 in sqrt(1 - beta2^t)).
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name="Adam", **kwargs):
        super().__init__(learning_rate=learning_rate, beta1=beta_1, beta2=beta_2, epsilon=epsilon, name=name,
                         **kwargs)

    def build(self, var_list):  # no running products of the betas
        TF1KernelOptimizer.build(self, var_list)

    def _backend_update_step(self, grads, trainable_variables, learning_rate):
        TF1KernelOptimizer._backend_update_step(self, grads, trainable_variables, learning_rate)

    def _powers(self, dtype):
        """beta1^t and beta2^t of this step, pow(beta, step) as Keras' OptimizerV2 computed them."""
        step = tf.cast(self.iterations + 1, dtype)
        return tuple(tf.pow(tf.cast(beta, dtype), step) for beta in (self.beta1, self.beta2))

    def get_config(self):
        config = super().get_config()
        for keras_name, tf1_name in (("beta_1", "beta1"), ("beta_2", "beta2")):
            config[keras_name] = config.pop(tf1_name)
        return config
