"""`tf.keras.backend.set_learning_phase` / `learning_phase` on Keras 3, which has no global phase.

TF 1.x model_fns set the phase before building a Keras model
(`tf.keras.backend.set_learning_phase(True)` in training), and Keras 3 removed both functions:
the call raised AttributeError at the model_fn's first line. Keras 3 layers take `training=`
from their call only, so nothing can make the global phase reach them. These keep the program
running and say so once: programs that also pass `training=` compute what
TF 1.x computed; layers called without it run in inference mode (Dropout off, BatchNormalization
on its moving statistics), which the codemod's MIG207 warning and this log line both name.
`learning_phase()` returns the phase last set, else 0 (TF 1.x's default in a model_fn).
"""

from __future__ import annotations

import logging

_LOG = logging.getLogger("estimator_bridge")
_state = {"phase": None, "warned": False}


def set_learning_phase(value):
    """Record the phase (TF 1.x accepted 0 or 1) and warn once that Keras 3 layers ignore it."""
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _state["phase"] = int(value)
    if not _state["warned"]:
        _state["warned"] = True
        _LOG.warning("tf.keras.backend.set_learning_phase(%s): Keras 3 has no global learning "
                     "phase; Keras layers called without training= run in inference mode (Dropout "
                     "off, BatchNormalization on moving statistics). Pass training= where the "
                     "model or layer is called.", value)


def learning_phase():
    """The phase last given to set_learning_phase, else 0."""
    return 0 if _state["phase"] is None else _state["phase"]
