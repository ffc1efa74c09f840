"""TF 1.x's optimizers for Keras 3 (estimator_bridge.compat.keras_tf1_optimizers) travel with a saved model.

Their numbers against TF 1.15 are pinned by the oracle test tests/migrate/test_keras_optimizers.py;
here: a model compiled with each, saved after one step (`.keras`) and loaded, takes the same next
step as the one kept in memory (slots, Adam's beta powers and the arguments are saved and restored).
"""

import keras
import numpy as np
import pytest

from estimator_bridge.compat import keras_tf1_optimizers as tf1

OPTIMIZERS = {
    "rmsprop_centered": lambda: tf1.RMSProp(0.01, momentum=0.5, centered=True),
    "adam": lambda: tf1.Adam(0.01, beta1=0.8),
    "nesterov": lambda: tf1.Momentum(0.1, 0.9, use_nesterov=True),
    "adagrad": lambda: tf1.Adagrad(0.1, initial_accumulator_value=0.3),
    "adadelta": lambda: tf1.Adadelta(1.0),
    "ftrl_shrinkage": lambda: tf1.Ftrl(0.1, l2_shrinkage_regularization_strength=0.01),
}


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_a_saved_model_takes_the_same_next_step(tmp_path, name):
    model = keras.Sequential([keras.Input((2,), dtype="int32"), keras.layers.Embedding(10, 3),
                              keras.layers.Flatten(), keras.layers.Dense(1)])
    model.compile(OPTIMIZERS[name](), "mse")
    data = np.random.RandomState(0)
    x, y = data.randint(0, 10, (8, 2)), data.randn(8, 1).astype(np.float32)
    model.train_on_batch(x, y)
    model.train_on_batch(x, y)
    model.save(tmp_path / "model.keras")
    loaded = keras.models.load_model(tmp_path / "model.keras")
    assert type(loaded.optimizer) is type(model.optimizer)
    assert loaded.optimizer.get_config() == model.optimizer.get_config()
    assert loaded.train_on_batch(x, y) == model.train_on_batch(x, y)
    for ours, theirs in zip(loaded.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(ours, theirs)
