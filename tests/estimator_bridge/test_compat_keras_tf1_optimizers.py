"""TF 1.x's optimizers for Keras 3 (estimator_bridge.compat.keras_tf1_optimizers) travel with a saved model.

Their numbers against TF 1.15 are pinned by the oracle test tests/migrate/test_keras_optimizers.py;
here: a model compiled with each, saved after one step (`.keras`) and loaded, takes the same next
step as the one kept in memory (slots, Adam's beta powers and the arguments are saved and restored);
a step XLA compiles (a TPU, `jit_compile`), which has no sparse training kernels, applies an
Embedding's gradient dense and takes the step the eager dense update takes.
"""

import keras
import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.compat import keras_tf1_optimizers as tf1

OPTIMIZERS = {
    "rmsprop_centered": lambda: tf1.RMSProp(0.01, momentum=0.5, centered=True),
    "adam": lambda: tf1.Adam(0.01, beta1=0.8),
    "nesterov": lambda: tf1.Momentum(0.1, 0.9, use_nesterov=True),
    "adagrad": lambda: tf1.Adagrad(0.1, initial_accumulator_value=0.3),
    "adadelta": lambda: tf1.Adadelta(1.0),
    "ftrl_shrinkage": lambda: tf1.Ftrl(0.1, l2_shrinkage_regularization_strength=0.01),
}


def _embedding_model(optimizer, jit_compile="auto"):
    model = keras.Sequential([keras.Input((2,), dtype="int32"), keras.layers.Embedding(10, 3),
                              keras.layers.Flatten(), keras.layers.Dense(1)])
    model.set_weights([np.random.RandomState(1).uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in model.get_weights()])
    model.compile(optimizer, "mse", jit_compile=jit_compile)
    return model


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_a_step_compiled_by_xla_applies_a_sparse_gradient_dense(name):
    """Before: InvalidArgumentError, no 'ResourceSparseApplyRMSProp' OpKernel for XLA_CPU_JIT."""
    data = np.random.RandomState(0)
    x, y = np.arange(8).reshape(4, 2) % 5, data.randn(4, 1).astype(np.float32)   # ids 5..9 untouched
    compiled = _embedding_model(OPTIMIZERS[name](), jit_compile=True)
    dense = _embedding_model(OPTIMIZERS[name](), jit_compile=False)
    for _ in range(3):
        compiled.train_on_batch(x, y)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(dense(x) - y))
        gradients = tape.gradient(loss, dense.trainable_variables)
        dense.optimizer.apply([tf.convert_to_tensor(g) for g in gradients], dense.trainable_variables)
    for ours, theirs in zip(compiled.get_weights(), dense.get_weights()):
        # measured: at most 4.2e-7 relative (Ftrl), XLA's fused arithmetic against the kernels' order
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_a_saved_model_takes_the_same_next_step(tmp_path, name):
    model = _embedding_model(OPTIMIZERS[name]())
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
