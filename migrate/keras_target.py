"""Which Keras the migrated code runs on: 3 (the default, forward-looking) or 2 (tf-keras).

`--keras 3`: Keras 2 APIs that Keras 3 removed or changed are rewritten (or reported), the code keeps
`tf.keras` / `keras`. `--keras 2`: the smallest diff that runs on current TensorFlow with tf-keras, the
Keras 2 that TensorFlow publishes for 2.16+ (pinned with the TensorFlow release): every `tf.keras` /
standalone `keras` reference becomes `tf_keras`, and the Keras 3 rewrites are not made (fit_generator,
.h5 weights, TF1 optimizers in compile, K.* and keras.preprocessing are native there).

Imports rather than TF_USE_LEGACY_KERAS: the variable only works when it is set before anything
imports TensorFlow (a notebook kernel or a library imported first makes `tf.keras` Keras 3 again), and
it does not touch standalone `import keras`; a `tf_keras` import holds wherever the module is imported.

A process-wide setting (the CLI sets it once; the worker processes inherit it through the environment).
"""

from __future__ import annotations

import os

ENVIRONMENT = "ESTIMATOR_MIGRATE_KERAS"
TARGETS = (2, 3)
DEFAULT = 3
WHY = {
    3: "Keras 3 (`--keras 3`, the default): the Keras TensorFlow ships; Keras 2 APIs it removed are rewritten "
       "or reported. `--keras 2` suits repositories full of Keras 2 internals (custom layers on K.*, "
       "keras.preprocessing, TF1 optimizers, .h5 files) that should run unchanged on tf-keras first",
    2: "Keras 2 (`--keras 2`): tf_keras (the tf-keras package, Keras 2 for TensorFlow 2.16+) replaces tf.keras "
       "and keras, the smallest diff. `--keras 3` suits code that should move on: Keras 3 is where new Keras "
       "features, backends and fixes go, tf-keras only follows TensorFlow releases",
}


def keras_target() -> int:
    value = os.environ.get(ENVIRONMENT, "")
    return int(value) if value in ("2", "3") else DEFAULT


def set_keras_target(target: int) -> None:
    if target not in TARGETS:
        raise ValueError(f"--keras must be one of {TARGETS}, not {target!r}")
    os.environ[ENVIRONMENT] = str(target)
