"""Keras `compile(optimizer=tf.train.AdamOptimizer(...))` under the compat runner: the Keras optimizer
with the same update.

TF 1.x's Keras wrapped a TF1 optimizer passed to `compile` (2018 Keras TPU code had to: the first
`keras_to_tpu_model` took only TF optimizers); Keras 3 rejects it ("Could not interpret optimizer
identifier"). The runner therefore hands Keras the optimizer that applies the same update, built
from the TF1 object's own hyperparameters, with TF1's defaults where Keras' differ (Adam's
epsilon 1e-8, not 1e-7). The same correspondence as the codemod's (migrate/tables/keras.py,
checked against TF 1.15 by tests/migrate/test_keras_optimizers.py); RMSProp's first steps differ
(TF1 starts its accumulator at 1), which is logged once. An optimizer Keras has no counterpart for
raises an error naming it and the choice to make.
"""

from __future__ import annotations

import functools
import logging

import tensorflow as tf

logger = logging.getLogger("estimator_bridge")

tf1 = tf.compat.v1

# TF1 class -> (Keras class name, {Keras argument: TF1 object's attribute}, fixed Keras arguments,
# what still differs). Pure data.
TF1_TO_KERAS = {
    "AdamOptimizer": ("Adam", {"learning_rate": "_lr", "beta_1": "_beta1", "beta_2": "_beta2",
                               "epsilon": "_epsilon"}, {}, ""),
    "GradientDescentOptimizer": ("SGD", {"learning_rate": "_learning_rate"}, {}, ""),
    "MomentumOptimizer": ("SGD", {"learning_rate": "_learning_rate", "momentum": "_momentum",
                                  "nesterov": "_use_nesterov"}, {}, ""),
    # TF1 divides by sqrt(accumulator); Keras by sqrt(accumulator + epsilon): epsilon 0 is TF1's.
    "AdagradOptimizer": ("Adagrad", {"learning_rate": "_learning_rate",
                                     "initial_accumulator_value": "_initial_accumulator_value"},
                         {"epsilon": 0.0}, ""),
    "AdadeltaOptimizer": ("Adadelta", {"learning_rate": "_lr", "rho": "_rho", "epsilon": "_epsilon"},
                          {}, ""),
    "RMSPropOptimizer": ("RMSprop", {"learning_rate": "_learning_rate", "rho": "_decay",
                                     "momentum": "_momentum", "epsilon": "_epsilon",
                                     "centered": "_centered"}, {},
                         "TF1's RMSProp starts its mean-square accumulator at 1, Keras' at 0: the "
                         "first updates are larger (the same once the accumulator has decayed)"),
    "FtrlOptimizer": ("Ftrl", {"learning_rate": "_learning_rate",
                               "learning_rate_power": "_learning_rate_power",
                               "initial_accumulator_value": "_initial_accumulator_value",
                               "l1_regularization_strength": "_l1_regularization_strength",
                               "l2_regularization_strength": "_l2_regularization_strength",
                               "l2_shrinkage_regularization_strength":
                                   "_l2_shrinkage_regularization_strength"}, {}, ""),
}

_logged = set()


def keras_optimizer_for(optimizer):
    """`optimizer` unchanged unless it is a TF1 `tf.train` optimizer: then its Keras counterpart.

    Raises:
      ValueError: a TF1 optimizer Keras has no counterpart for, or one whose hyperparameters are
        tensors or schedules (Keras needs numbers or a keras schedule).
    """
    if not isinstance(optimizer, tf1.train.Optimizer):
        return optimizer
    name = type(optimizer).__name__
    if name not in TF1_TO_KERAS:
        raise ValueError(
            f"Keras compile got the TF1 optimizer tf.train.{name}, which Keras 3 cannot use and "
            "has no counterpart for. Pass a Keras optimizer (tf.keras.optimizers.*) instead; "
            "the numbers will differ from TF 1.x's.")
    keras_name, attributes, fixed, difference = TF1_TO_KERAS[name]
    arguments = dict(fixed)
    for argument, attribute in attributes.items():
        value = getattr(optimizer, attribute)
        if callable(value) or tf.is_tensor(value):
            raise ValueError(
                f"Keras compile got tf.train.{name} with {argument}={value!r:.80}: a tensor or "
                f"function, which tf.keras.optimizers.{keras_name} cannot take. Pass a number, "
                "or a tf.keras.optimizers.schedules.* schedule to a Keras optimizer.")
        arguments[argument] = value
    if difference and name not in _logged:
        _logged.add(name)
        logger.warning("estimator_bridge: Keras compile got tf.train.%s; using "
                       "tf.keras.optimizers.%s with its hyperparameters. %s.", name, keras_name,
                       difference)
    return getattr(tf.keras.optimizers, keras_name)(**arguments)


def keras_compile_owner():
    """The Keras class that defines `compile` (its Trainer), where patches of compile must go.

    Keras compares a model class's compile with Trainer.compile to decide whether compile() is
    custom, and then skips compiling in clone_model / compile_from_config / model loading; a
    patch on keras.Model would look custom. Used here and by estimator_bridge.tpu_emulation.
    """
    import keras

    return next(klass for klass in keras.Model.__mro__ if "compile" in vars(klass))


def tf1_metric_names(metrics):
    """`compile`'s metrics with the strings TF 1.x's Keras named otherwise spelled so that Keras 3
    gives them TF 1.x's names ('accuracy' -> 'acc', 'mae' -> 'mean_absolute_error': history keys
    and logs as in TF 1.x; the table and its measurement: migrate/tables/keras.py, the codemod
    KerasTF1MetricNames does the same). Anything but a list or tuple is returned unchanged."""
    from migrate.tables.keras import TF1_METRIC_NAMES

    if not isinstance(metrics, (list, tuple)):
        return metrics
    return type(metrics)(TF1_METRIC_NAMES.get(m, m) if isinstance(m, str) else m for m in metrics)


def tf1_metric_renames() -> dict:
    """{TF 2.x / Keras 3 metric string: TF 1.x's name for it} that tf1_metric_names applies."""
    from migrate.tables.keras import TF1_METRIC_NAMES

    return dict(TF1_METRIC_NAMES)


def tf1_compile_arguments(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """TF 1.x's `compile(optimizer, loss, metrics, loss_weights, ...)` positions past the second as
    keywords: Keras 3 reads the third position as loss_weights, so `model.compile("adam", loss, [acc])`
    would fail with "Failed to convert elements of <function acc> to Tensor" (the order:
    migrate/tables/keras.py, which the codemod applies too)."""
    from migrate.tables.keras import COMPILE_TF1_POSITIONAL

    if len(args) <= 2:
        return args, kwargs
    kwargs = dict(kwargs)
    for name, value in zip(COMPILE_TF1_POSITIONAL[2:], args[2:]):
        if name in kwargs:
            raise TypeError(f"compile() got multiple values for argument '{name}'")
        kwargs[name] = value
    return args[:2], kwargs


def accept_tf1_optimizers_in_compile():
    """Let Keras `Model.compile` take TF1 optimizers, as TF 1.x's Keras did (process-wide), and
    name string metrics as TF 1.x did (tf1_metric_names).

    Returns a function that undoes it (tests); calling this again while installed does nothing.
    """
    owner = keras_compile_owner()
    if getattr(owner.compile, "_estimator_bridge", False):
        return lambda: None
    original = owner.compile

    @functools.wraps(original)
    def compile(self, *args, **kwargs):
        args, kwargs = tf1_compile_arguments(args, kwargs)
        if "optimizer" in kwargs:
            kwargs["optimizer"] = keras_optimizer_for(kwargs["optimizer"])
        elif args:
            args = (keras_optimizer_for(args[0]), *args[1:])
        if "metrics" in kwargs:
            kwargs["metrics"] = tf1_metric_names(kwargs["metrics"])
        return original(self, *args, **kwargs)

    compile._estimator_bridge = True
    owner.compile = compile

    def undo():
        owner.compile = original

    return undo
