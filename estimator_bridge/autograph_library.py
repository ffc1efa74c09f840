"""AutoGraph runs the bridge's own functions as Python, as it runs TensorFlow's.

A Keras layer's `call` built in graph mode is converted by AutoGraph, and so is every function it
calls unless AutoGraph's conversion rules name the function's module as a library. TensorFlow's
own `tf.layers`, `tf.contrib` and `tf.compat.v1` code lives under `tensorflow`, which the rules
skip; the bridge serves the same names from `estimator_bridge`, which they did not: the bridge's
code was rewritten by AutoGraph, where its Python (`**locals()`, contextvars, inspect) is not
meant to be converted and was not in TF 1.15. Registering the package keeps that.
"""

from tensorflow.python.autograph.core import config as _autograph_config

PACKAGE = __name__.rsplit(".", 1)[0]


def register() -> None:
    """Add `estimator_bridge` to AutoGraph's libraries it never converts (once)."""
    rule = _autograph_config.DoNotConvert(PACKAGE)
    rules = _autograph_config.CONVERSION_RULES
    if not any(isinstance(existing, _autograph_config.DoNotConvert) and existing.matches(PACKAGE + ".x")
               for existing in rules):
        _autograph_config.CONVERSION_RULES = (rule,) + tuple(rules)
