"""Test-process setup shared by every test: 8 logical CPU devices, quiet TensorFlow logs.

Emulating an 8-core TPU needs 8 devices for MirroredStrategy, and TensorFlow accepts a logical
device configuration only before it initialises its devices (the first op). Doing it here, at
conftest import, runs it before any test module is collected, once per test process. Tests on
one device are unaffected: the default device stays /cpu:0.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# estimator-migrate's result cache lives under the user's cache dir; a test run gets its own, so
# that no result depends on what an earlier run (of other code) left there.
if "ESTIMATOR_MIGRATE_CACHE" not in os.environ:
    import tempfile

    os.environ["ESTIMATOR_MIGRATE_CACHE"] = tempfile.mkdtemp(prefix="estimator-migrate-cache-")

EMULATED_TPU_CORES = 8


def _configure_logical_cpus():
    import tensorflow as tf

    cpus = tf.config.list_physical_devices("CPU")
    try:
        tf.config.set_logical_device_configuration(
            cpus[0], [tf.config.LogicalDeviceConfiguration() for _ in range(EMULATED_TPU_CORES)])
    except RuntimeError:
        # Already initialised (e.g. a plugin ran an op first): the tests that need 8 devices
        # then fail with the bridge's own error message, which says how to fix it.
        pass


_configure_logical_cpus()


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _restore_tf2_behaviour():
    """Undo process-wide TF1 switches a test may have flipped (v1 TensorShape, Tensor equality).

    Legacy programs run in-process (`tf.disable_v2_behavior()` under the compat namespace)
    switch them on for the whole process; without this, later tests see `shape=(?, 8)` instead
    of `(None, 8)` depending on test order.
    """
    import tensorflow as tf
    from tensorflow.python.framework import tensor, tensor_shape

    yield
    if tensor_shape._TENSORSHAPE_V2_OVERRIDE is False:
        tf.compat.v1.enable_v2_tensorshape()
    if not tensor.Tensor._USE_EQUALITY:
        tf.compat.v1.enable_tensor_equality()
