"""TF 1.x behaviours a legacy script relies on, switched on without breaking the bridge.

TF 1.15 ran with v1 TensorShapes (`x.shape[-1].value`, BERT's `get_shape_list`) and identity-based
Tensor equality (tensors as dict keys and in sets, `==` between tensors is Python identity).
TF 2.x code written against `tf.compat.v1` switched them back on with `disable_v2_behavior()`,
which also turns off eager execution, resource variables and control flow v2: the bridge
needs all three (it runs model_fn inside `tf.function` with its variable cache). So the TF1
namespace serves bridge-safe versions of those switches:

* `apply_tf1_behavior()`  v1 TensorShape + v1 Tensor equality, and what TF 1.15's import loaded
  (what the compat runner applies);
* `disable_v2_behavior()` the same, and a log line saying what was kept on and why;
* `disable_eager_execution()` keeps eager execution on (TPU/Estimator scripts need it) unless the
  runner was started with `--graph-mode` (Session scripts), and says so once.

These switches are process-wide TensorFlow state: call them only in a process that runs legacy
code (the compat runner does; `with installed()` in a test process does not).
"""

from __future__ import annotations

import tensorflow as tf

_warned = set()


def apply_tf1_behavior() -> None:
    """v1 TensorShape (`Dimension` with `.value`) and identity-based Tensor equality, as TF 1.15;
    and the modules TF 1.15's `import tensorflow` imported as a side effect (import_as_tf115_did).
    Keras needs nothing here: the runner's Keras is Keras 2 (compat/legacy_keras.py)."""
    tf.compat.v1.disable_v2_tensorshape()
    tf.compat.v1.disable_tensor_equality()
    import_as_tf115_did()


# Modules TF 1.15's `import tensorflow` loaded as a side effect, which programs used without importing
# them: `import distutils; distutils.version.LooseVersion(tf.__version__)`, the version check of many
# 2019 Colab notebooks (tensorflow/tpu tools/colab/*), raised AttributeError on TF 2.x.
TF115_SIDE_EFFECT_IMPORTS = ("distutils.version",)


def import_as_tf115_did() -> None:
    import importlib
    import warnings

    from estimator_bridge.compat import py_inspect

    py_inspect.install()  # inspect.getargspec (Python 3.11 removed it; TF 1.x programs call it)

    for name in TF115_SIDE_EFFECT_IMPORTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # distutils (Python 3.10-3.11)
            try:
                importlib.import_module(name)
            except ImportError:  # Python 3.12+ without setuptools' distutils: nothing TF 1.15 had to offer
                pass


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
