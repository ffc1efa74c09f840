"""tf.contrib.learn helpers that programs built on its Experiment kept calling with plain hooks.

tensor2tensor's trainer_lib (and the programs built on it) passed its hook lists through
`tf.contrib.learn.monitors.replace_monitors_with_hooks(hooks, estimator)`. In TF 1.15 that
returned the SessionRunHooks it was given, in order, and wrapped contrib.learn's Monitor objects
into one adapter hook. Monitors went with contrib.learn, so here a hook list comes back as TF 1.15
returned it and anything else is refused with what to do instead.
"""

from __future__ import annotations

import tensorflow as tf


def replace_monitors_with_hooks(monitors_or_hooks, estimator):
    """The SessionRunHooks of `monitors_or_hooks` (None: []), as TF 1.15 returned them.

    Raises:
      TypeError: an element is not a SessionRunHook (a contrib.learn Monitor): there are no
        monitors in TensorFlow 2; write it as a `tf.compat.v1.train.SessionRunHook`.
    """
    del estimator  # TF 1.15 gave it to the monitors only
    items = list(monitors_or_hooks or [])
    others = [item for item in items if not isinstance(item, tf.compat.v1.train.SessionRunHook)]
    if others:
        raise TypeError(
            f"replace_monitors_with_hooks: {others!r} are not SessionRunHooks. contrib.learn's "
            "Monitors do not exist in TensorFlow 2: write each as a tf.compat.v1.train."
            "SessionRunHook (begin/before_run/after_run/end) and pass it in hooks=.")
    return items
