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


def restarted_each_epoch(validation_data):
    """`fit(validation_data=V, validation_steps=N)` under a tf.distribute strategy as Keras 2 ran it: `V` itself.

    Keras 2 and Keras 3 both evaluate the validation data from its start at every epoch (measured
    on TF 2.15 and 2.21: with a learning rate of 0 every epoch's val_loss is the same). Keras 3's
    TensorFlow trainer under a distribution strategy (TPUStrategy, MirroredStrategy, also with one
    replica) first reads one batch from the cached validation iterator to build the model
    symbolically, before it resets that iterator; when the previous epoch's validation read a
    finite dataset of unknown size to its end (`validation_steps` = all its batches, e.g.
    `dataset.batch(10000)` with `validation_steps=1`), that read raises StopIteration at the second
    epoch. Found on GoogleCloudPlatform/training-data-analyst's 01_MNIST_TPU_Keras.ipynb (TF 2.2).

    This returns `validation_data` unchanged and makes, once per process, Keras 3 reset the cached
    validation iterator before that read (the reset it does right after): the same batches are
    evaluated, the stale iterator is not touched. Nothing changes when Keras has no such trainer.
    """
    _restart_validation_before_symbolic_build()
    return validation_data


def _restart_validation_before_symbolic_build() -> None:
    try:
        from keras.src.backend.tensorflow.trainer import TensorFlowTrainer
    except ImportError:  # another Keras backend or version: nothing to fix
        return
    original = TensorFlowTrainer._maybe_symbolic_build
    if getattr(original, "_restarts_validation", False):
        return

    def _maybe_symbolic_build(self, iterator=None, data_batch=None):
        if iterator is not None and iterator is getattr(self, "_eval_epoch_iterator", None):
            iterator.reset()
        return original(self, iterator=iterator, data_batch=data_batch)

    _maybe_symbolic_build._restarts_validation = True
    _maybe_symbolic_build._original = original
    TensorFlowTrainer._maybe_symbolic_build = _maybe_symbolic_build
