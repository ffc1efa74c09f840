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


def _fit_with_validation_steps(wrap, learning_rate):
    """The MNIST notebook's shape: one finite validation batch of unknown size, validation_steps=1,
    MirroredStrategy with one replica (the notebook's non-TPU fallback)."""
    import keras

    from estimator_bridge.compat.keras_methods import restarted_each_epoch

    x = np.random.RandomState(0).rand(64, 4).astype("float32")
    y = (x[:, 0] > 0.5).astype("float32")
    valid = tf.data.Dataset.from_tensor_slices((x, y)).filter(lambda a, b: True).batch(64)
    train = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)
    with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid")])
        model.compile(keras.optimizers.SGD(learning_rate), "binary_crossentropy")
    history = model.fit(train, steps_per_epoch=2, epochs=3, verbose=0, validation_steps=1,
                        validation_data=restarted_each_epoch(valid) if wrap else valid)
    return model, history.history["val_loss"], valid


def test_finite_validation_read_to_its_end_is_restarted_each_epoch_under_a_strategy():
    """Keras 3.15 without the helper: StopIteration at the 2nd epoch (measured); Keras 2.15 (TF 2.15
    oracle, same program): 3 epochs, and with learning rate 0 the same val_loss at every epoch
    (restarted from the start). With the helper Keras 3 does the same."""
    _, frozen, _ = _fit_with_validation_steps(wrap=True, learning_rate=0.0)
    assert len(frozen) == 3 and frozen[0] == frozen[1] == frozen[2]
    model, losses, valid = _fit_with_validation_steps(wrap=True, learning_rate=0.1)
    assert len(losses) == 3
    np.testing.assert_allclose(losses[-1], model.evaluate(valid, verbose=0), rtol=1e-6)


def test_without_the_helper_keras_3_still_fails_here():
    """Pins the Keras 3 behaviour the helper exists for; when this fails, Keras fixed it upstream."""
    from keras.src.backend.tensorflow.trainer import TensorFlowTrainer

    patched = TensorFlowTrainer._maybe_symbolic_build
    TensorFlowTrainer._maybe_symbolic_build = getattr(patched, "_original", patched)
    try:
        with pytest.raises(StopIteration):
            _fit_with_validation_steps(wrap=False, learning_rate=0.1)
    finally:
        TensorFlowTrainer._maybe_symbolic_build = patched
