"""Test-process setup shared by every test: 8 logical CPU devices, quiet TensorFlow logs.

Emulating an 8-core TPU needs 8 devices for MirroredStrategy, and TensorFlow accepts a logical
device configuration only before it initialises its devices (the first op). Doing it here, at
conftest import, runs it before any test module is collected, once per test process. Tests on
one device are unaffected: the default device stays /cpu:0.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

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
