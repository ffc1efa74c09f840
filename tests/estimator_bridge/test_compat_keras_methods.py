"""Keras 2's `x.reset_states()` on Keras 3 objects (estimator_bridge/compat/keras_methods.py).

Found on tensorflow/tpu tools/colab/shakespeare_with_tpu_and_keras.ipynb @ f4610ce: a stateful LSTM
model (batch 5, one character per step) primed with `prediction_model.reset_states()`, then sampled
one `predict` at a time; Keras 3 models have no reset_states (AttributeError).
"""

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.compat.keras_methods import reset_states


def _stateful_model(nested: bool = False):
    inputs = tf.keras.Input(shape=(1,), batch_size=2, dtype="int32")
    x = tf.keras.layers.Embedding(10, 4)(inputs)
    x = tf.keras.layers.LSTM(3, stateful=True, return_sequences=True)(x)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(5)(x))
    if nested:
        model = tf.keras.Sequential([tf.keras.Input(shape=(1,), batch_size=2, dtype="int32"), model])
    return model


@pytest.mark.parametrize("nested", [False, True])
def test_a_models_stateful_layers_start_again_as_keras_2s_model_reset_states_did(nested):
    model = _stateful_model(nested)
    seed = np.array([[1], [2]], dtype="int32")
    first = model.predict(seed, verbose=0)
    carried = model.predict(seed, verbose=0)
    assert not np.allclose(first, carried)          # the state carried over
    reset_states(model)
    np.testing.assert_array_equal(model.predict(seed, verbose=0), first)


def test_a_metric_is_reset_with_keras_3s_reset_state():
    metric = tf.keras.metrics.Mean()
    metric.update_state([1.0, 3.0])
    reset_states(metric)
    assert float(metric.result()) == 0.0


def test_an_object_with_its_own_reset_states_keeps_it():
    calls = []

    class Custom:
        def reset_states(self):
            calls.append("own")
            return "done"

    assert reset_states(Custom()) == "done" and calls == ["own"]


def test_anything_else_is_an_attribute_error_naming_keras_2s_method():
    with pytest.raises(AttributeError, match="reset_states"):
        reset_states(object())
