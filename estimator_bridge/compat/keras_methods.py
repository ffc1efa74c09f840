"""Keras 2 methods Keras 3 removed from models and metrics, for code estimator-migrate rewrote.

`x.reset_states()` was a method of every Keras 2 model (reset the stateful RNN layers) and metric
(TF 2.x: an alias of `reset_state()`). Keras 3 kept it on RNN layers only, so the 2018-2021 TPU
colabs that primed a stateful model before sampling (tensorflow/tpu tools/colab/
shakespeare_with_tpu_and_keras.ipynb: `prediction_model.reset_states()`) raised AttributeError.
What `x` is cannot be seen in the source, so the codemod writes `reset_states(x)` and this
decides at run time, as Keras 2 did.
"""

from __future__ import annotations


def reset_states(obj):
    """Keras 2's `obj.reset_states()` on Keras 3 objects; the object's own method when it has one.

    - an object with a `reset_states` method (Keras 3 RNN layers, the user's own classes): called;
    - a model (anything with `.layers`): Keras 2's Model.reset_states, which reset every layer that
      is `stateful` and has `reset_states`; nested models are entered (in Keras 2 they had the
      method and did the same);
    - a metric (`reset_state()`, Keras 3's name): called;
    - else AttributeError, with Keras 2's name in the message.
    """
    method = getattr(obj, "reset_states", None)
    if callable(method):
        return method()
    layers = getattr(obj, "layers", None)
    if layers is not None:
        for layer in layers:
            if callable(getattr(layer, "reset_states", None)):
                if getattr(layer, "stateful", False):
                    layer.reset_states()
            elif getattr(layer, "layers", None) is not None:
                reset_states(layer)
        return None
    method = getattr(obj, "reset_state", None)
    if callable(method):
        return method()
    raise AttributeError(f"'{type(obj).__name__}' object has no attribute 'reset_states' (Keras 2's "
                         "reset_states: a model resets its stateful layers, a metric its state)")
