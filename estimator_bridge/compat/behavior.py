"""TF 1.x behaviours a legacy script relies on, switched on without breaking the bridge.

TF 1.15 ran with v1 TensorShapes (`x.shape[-1].value`, BERT's `get_shape_list`) and identity-based
Tensor equality (tensors as dict keys and in sets, `==` between tensors is Python identity).
TF 2.x code written against `tf.compat.v1` switched them back on with `disable_v2_behavior()`,
which also turns off eager execution, resource variables and control flow v2: the bridge
needs all three (it runs model_fn inside `tf.function` with its variable cache). So the TF1
namespace serves bridge-safe versions of those switches:

* `apply_tf1_behavior()`  v1 TensorShape + v1 Tensor equality, Keras `compile` taking TF1
  optimizers, Keras 2's metrics_names and 'lr' history key, Keras' summary on v2 shapes, Keras
  2's batch-norm moving variance (what the compat runner applies);
* `disable_v2_behavior()` the same, and a log line saying what was kept on and why;
* `disable_eager_execution()` keeps eager execution on (TPU/Estimator scripts need it) unless the
  runner was started with `--graph-mode` (Session scripts), and says so once.

These switches are process-wide TensorFlow state: call them only in a process that runs legacy
code (the compat runner does; `with installed()` in a test process does not).
"""

from __future__ import annotations

import functools

import tensorflow as tf

_warned = set()


def apply_tf1_behavior() -> None:
    """v1 TensorShape (`Dimension` with `.value`) and identity-based Tensor equality, as TF 1.15;
    Keras `compile` takes TF1 optimizers, as TF 1.15's Keras did (compat/keras_optimizers.py);
    Keras 2's `metrics_names` and 'lr' history key (compat/keras_methods.serve_keras2_names)."""
    from estimator_bridge.compat.keras_batch_norm import serve_keras2_moving_variance
    from estimator_bridge.compat.keras_methods import serve_keras2_names
    from estimator_bridge.compat.keras_optimizers import accept_tf1_optimizers_in_compile

    tf.compat.v1.disable_v2_tensorshape()
    tf.compat.v1.disable_tensor_equality()
    accept_tf1_optimizers_in_compile()
    serve_keras2_names()
    keras_summary_on_v2_shapes()
    serve_keras2_moving_variance()


def keras_summary_on_v2_shapes():
    """Keras 3's `Model.summary` runs with v2 TensorShapes, whatever the process has.

    Keras 3 is written for v2 shapes: its TF Variable's `shape` is a `tf.TensorShape`, and
    summary_utils.weight_memory_size multiplies its dimensions and divides by 8. Under the v1
    shapes the runner switches on, those are `Dimension`s and `Dimension / 8` raises ("please use
    // instead"), so `model.summary()`, in nearly every Keras notebook, would stop the program.
    The summary reads
    shapes only to print them; the program's own code keeps v1 shapes. Idempotent.
    """
    import keras
    from tensorflow.python.framework import tensor_shape

    owner = next(klass for klass in keras.Model.__mro__ if "summary" in vars(klass))
    original = owner.summary
    if getattr(original, "_estimator_bridge", False):
        return

    @functools.wraps(original)
    def summary(self, *args, **kwargs):
        v1 = tensor_shape._TENSORSHAPE_V2_OVERRIDE is False  # None: the default, v2 in TF 2.x
        if v1:
            tf.compat.v1.enable_v2_tensorshape()
        try:
            return original(self, *args, **kwargs)
        finally:
            if v1:
                tf.compat.v1.disable_v2_tensorshape()

    summary._estimator_bridge = True
    owner.summary = summary


def enter_graph_mode() -> None:
    """The runner's `--graph-mode`: TF1 graph mode for Session scripts (no Estimator)."""
    tf.compat.v1.disable_eager_execution()


def disable_v2_behavior() -> None:
    """`tf.compat.v1.disable_v2_behavior()` for scripts run by estimator_bridge."""
    apply_tf1_behavior()
    _log_once(
        "disable_v2_behavior",
        "estimator_bridge: disable_v2_behavior() applied v1 TensorShape and Tensor equality; "
        "eager execution, resource variables and control flow v2 stay on because the bridge "
        "runs model_fn inside tf.function. Session-only scripts: run them with "
        "`python -m estimator_bridge.run --graph-mode`.")


def disable_eager_execution() -> None:
    """Keeps eager execution on (the bridge needs it); under `--graph-mode` it is already off."""
    if not tf.executing_eagerly():
        return  # --graph-mode: the runner already disabled it, as the script asks
    _log_once(
        "disable_eager_execution",
        "estimator_bridge: ignoring tf.compat.v1.disable_eager_execution(): (TPU)Estimators run "
        "by the bridge need eager execution. If this script builds graphs and runs Sessions "
        "itself, run it with `python -m estimator_bridge.run --graph-mode`.")


def _log_once(key, message):
    if key not in _warned:
        _warned.add(key)
        tf.compat.v1.logging.warning(message)
