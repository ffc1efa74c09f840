"""The compat runner's Keras is Keras 2 (tf-keras): chosen before TensorFlow is imported.

TensorFlow 2.16+ routes `tf.keras` (and `tf.compat.v1.keras`, and the `tensorflow.keras.*` import
path) to the `tf_keras` package when `TF_USE_LEGACY_KERAS` is set at the time TensorFlow is
imported, and to Keras 3 otherwise. `python -m estimator_bridge.run` imports this package (and so
TensorFlow) before `run.py` starts, so the package's `__init__` calls `choose_for_this_process()`
first: a process started as the runner gets Keras 2, the Keras every legacy program was written
for (TF 1.x's tf.keras, standalone Keras 2.x, TF 2.0-2.15's tf.keras); any other process (the
bridge as a library, migrated code, tests) keeps TensorFlow's default. This module imports
nothing but the standard library.
"""

from __future__ import annotations

import os
import sys

RUNNER_MODULE = "estimator_bridge.run"
EMULATION_MODULE = "estimator_bridge.tpu_emulation"  # runs the runner on an emulated TPU
LEGACY_KERAS_VARIABLE = "TF_USE_LEGACY_KERAS"
# Interpreter options that take the next argument as their value (`python -X dev -m ...`).
_OPTIONS_WITH_VALUE = ("-W", "-X", "-Q")


def started_as_runner(argv) -> bool:
    """Whether the interpreter's command line (`sys.orig_argv`) is `python [opts] -m estimator_bridge.run ...`
    (also through `-m estimator_bridge.tpu_emulation [--cores N]`)."""
    arguments = list(argv[1:])
    while arguments:
        argument = arguments.pop(0)
        if argument.startswith("-m"):
            module = argument[2:] or (arguments.pop(0) if arguments else "")
            if module == EMULATION_MODULE:  # `-m estimator_bridge.tpu_emulation [--cores N] -m estimator_bridge.run`
                return any(arguments[i:i + 2] == ["-m", RUNNER_MODULE] for i in range(len(arguments)))
            return module == RUNNER_MODULE
        if argument in _OPTIONS_WITH_VALUE:
            if arguments:
                arguments.pop(0)
            continue
        if not argument.startswith("-") or argument in ("-c", "-"):
            return False
    return False


def choose_for_this_process() -> None:
    """Sets TF_USE_LEGACY_KERAS=1 in a process started as the compat runner (before TensorFlow loads)."""
    if started_as_runner(getattr(sys, "orig_argv", sys.argv)):
        os.environ[LEGACY_KERAS_VARIABLE] = "1"


def tensorflow_serves_tf_keras() -> bool:
    """Whether the TensorFlow of this process routes tf.keras to tf-keras (decided at its import)."""
    tensorflow = sys.modules.get("tensorflow")
    if tensorflow is None:
        return os.environ.get(LEGACY_KERAS_VARIABLE) in ("true", "True", "1")
    return bool(getattr(tensorflow, "_tf_uses_legacy_keras", False))
