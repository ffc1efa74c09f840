"""keras_tf1_inputs: TF 1.x Keras' rank-1 inputs (a 1-D array for a rank-2 input is an (n, 1) column).

TF 1.15's own answers on the same calls are held by tests/migrate/test_keras_tf1_rank1_inputs.py
(oracle test); this shows the run-time decision on Keras 3 models.
"""

import keras
import numpy as np
import pytest

from estimator_bridge.compat.keras_tf1_inputs import evaluate_tf1, predict_tf1, standardized


def _column_model():
    inputs = keras.Input(shape=(1,))
    model = keras.Model(inputs, keras.layers.Dense(2, kernel_initializer="ones")(inputs))
    model.compile("sgd", "mse")
    return model


def test_a_1d_array_after_a_2d_one_is_predicted_as_tf_1_x_did():
    """Keras 3 alone: ValueError "as_list() is not defined on an unknown TensorShape" at the second call."""
    model = _column_model()
    column = np.arange(4, dtype=np.float32)[:, None]
    first = predict_tf1(model, column, verbose=0)
    np.testing.assert_array_equal(predict_tf1(model, column[:, 0], verbose=0), first)
    np.testing.assert_array_equal(predict_tf1(model, [0.0, 1.0, 2.0, 3.0], verbose=0), first)
    with pytest.raises(ValueError):
        model.predict(column[:, 0], verbose=0)
    assert evaluate_tf1(model, column[:, 0], np.zeros((4, 2), np.float32), verbose=0) == \
        model.evaluate(column, np.zeros((4, 2), np.float32), verbose=0)


def test_only_rank_1_arrays_for_rank_2_inputs_are_expanded():
    a, b = keras.Input(shape=(1,), name="a"), keras.Input(shape=(1, 3), name="b")
    model = keras.Model([a, b], [a, b])
    flat = np.zeros(4, np.float32)
    assert [x.shape for x in standardized(model, [flat, flat])] == [(4, 1), (4,)]
    assert {k: v.shape for k, v in standardized(model, {"a": flat, "b": flat}).items()} == {"a": (4, 1), "b": (4,)}
    assert standardized(_column_model(), np.zeros((4, 1))).shape == (4, 1)


def test_models_without_declared_inputs_and_other_objects_get_x_as_it_is():
    class Subclassed(keras.Model):
        def call(self, x):
            return x

    flat = np.zeros(4, np.float32)
    assert standardized(Subclassed(), flat) is flat
    assert standardized(keras.Sequential([keras.layers.Dense(2)]), flat) is flat   # not built yet
    assert standardized(object(), flat) is flat
