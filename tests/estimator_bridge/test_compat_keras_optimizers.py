"""Under the compat runner, Keras compile takes TF1 optimizers as TF 1.15's Keras did.

Same update as TF 1.15: one step of a tiny model compiled with tf.train.AdamOptimizer /
MomentumOptimizer gives TF 1.15's weights (oracle, tests/support/oracles.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.compat.keras_optimizers import accept_tf1_optimizers_in_compile, keras_optimizer_for
from tests.support.numbers import assert_close
from tests.support.oracles import oracle_python, run_json

tf1 = tf.compat.v1

PROGRAM = """
import json, sys
import numpy as np
import tensorflow as tf
{prelude}
x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
y = (np.arange(8) % 2).astype(np.float32).reshape(8, 1)
results = {{}}
for name, optimizer in (("adam", tf.train.AdamOptimizer(0.05)),
                        ("momentum", tf.train.MomentumOptimizer(0.1, momentum=0.9, use_nesterov=True)),
                        ("adagrad", tf.train.AdagradOptimizer(0.2))):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,), activation="sigmoid",
                                 kernel_initializer=tf.keras.initializers.Constant(0.3))])
    model.compile(optimizer=optimizer, loss="mean_squared_error")
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    results[name] = [w.tolist() for w in model.get_weights()]
print(json.dumps(results))
"""


def test_tf1_optimizers_become_their_keras_counterparts_with_tf1_hyperparameters():
    adam = keras_optimizer_for(tf1.train.AdamOptimizer(0.01, beta1=0.8))
    assert isinstance(adam, tf.keras.optimizers.Adam)
    assert (float(adam.learning_rate), adam.beta_1, adam.beta_2, adam.epsilon) == pytest.approx(
        (0.01, 0.8, 0.999, 1e-8))
    sgd = keras_optimizer_for(tf1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True))
    assert isinstance(sgd, tf.keras.optimizers.SGD) and sgd.nesterov and sgd.momentum == 0.9
    keras_adam = tf.keras.optimizers.Adam()
    assert keras_optimizer_for(keras_adam) is keras_adam and keras_optimizer_for("sgd") == "sgd"


def test_what_keras_cannot_take_is_an_error_naming_it():
    with pytest.raises(ValueError, match=r"tf.train.ProximalGradientDescentOptimizer, which Keras 3 "
                                         r"cannot use.*Pass a Keras optimizer"):
        keras_optimizer_for(tf1.train.ProximalGradientDescentOptimizer(0.1))
    with pytest.raises(ValueError, match=r"learning_rate=.*a tensor or function"):
        keras_optimizer_for(tf1.train.GradientDescentOptimizer(lambda: 0.1))


@pytest.mark.oracle
def test_keras_trained_with_tf1_optimizers_gives_tf115s_weights(tmp_path):
    oracle = tmp_path / "oracle.py"
    oracle.write_text(PROGRAM.format(prelude="tf.set_random_seed(0)"))
    expected = run_json(oracle_python("tf115"), oracle)
    undo = accept_tf1_optimizers_in_compile()
    try:
        ours = _train_with_tf1_optimizers()
    finally:
        undo()
    for name in expected:
        for theirs, mine in zip(expected[name], ours[name]):
            # Measured: 8.1e-6 at most (Keras 3's and TF 1.15 Keras' float32 kernels; the
            # keras examples measure the same order, legacy_examples/catalog.py). Held to 5e-5.
            assert_close(np.array(mine), np.array(theirs), rtol=5e-5, what=f"{name} weights")


def test_the_compile_wrapper_is_keras_own_for_cloning_and_compile_from_config():
    undo = accept_tf1_optimizers_in_compile()
    try:
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf1.train.AdamOptimizer(0.01), loss="mse")
        clone = tf.keras.models.clone_model(model)
        clone.compile_from_config(model.get_compile_config())
        assert clone.compiled and float(clone.optimizer.learning_rate) == pytest.approx(0.01)
    finally:
        undo()


def _train_with_tf1_optimizers():
    ours = {}
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
    y = (np.arange(8) % 2).astype(np.float32).reshape(8, 1)
    for name, optimizer in (("adam", tf1.train.AdamOptimizer(0.05)),
                            ("momentum", tf1.train.MomentumOptimizer(0.1, momentum=0.9, use_nesterov=True)),
                            ("adagrad", tf1.train.AdagradOptimizer(0.2))):
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(
            1, activation="sigmoid", kernel_initializer=tf.keras.initializers.Constant(0.3))])
        model.compile(optimizer=optimizer, loss="mean_squared_error")
        model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
        ours[name] = [w.tolist() for w in model.get_weights()]
    return ours
