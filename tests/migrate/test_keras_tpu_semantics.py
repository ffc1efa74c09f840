"""The code the Keras codemods write runs on Keras 3 (TF 2.21) and trains like the original model.

No TPU here: the migrated module runs as it is, with TensorFlow's TPU entry points emulated
(`estimator_bridge.tpu_emulation`: TPUClusterResolver / TPUStrategy over 8 logical CPUs), so
the converted TPU branch executes. Its results must equal the original compiled model fitted
without any strategy at the same global batch.
"""

import os

import numpy as np
import pytest

from estimator_bridge import tpu_emulation
from migrate.engine import migrate_text

SEPARATE_NAMES = '''import tensorflow as tf


def to_tpu(model, resolver):
  strategy = tf.contrib.tpu.TPUDistributionStrategy(resolver)
  tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
  return tpu_model
'''

# The Cloud TPU colabs of 2018 rebound the name: `model = keras_to_tpu_model(model, ...)`,
# often after `model.load_weights(...)`.
SAME_NAME = '''import tensorflow as tf


def to_tpu(model, resolver):
  model = tf.contrib.tpu.keras_to_tpu_model(
      model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
  return model
'''


def _run_migrated(source: str):
    """The migrated module's `to_tpu`, executed with an emulated 8-core TPU."""
    migrated, findings = migrate_text(source)
    assert [f.code for f in findings] == []
    namespace = {}
    exec(compile(migrated, "<migrated>", "exec"), namespace)
    return namespace["to_tpu"]


def _data():
    x = np.random.RandomState(0).randn(64, 4).astype("float32")
    y = ((x[:, 0] > 0).astype("int32") + (x[:, 1] > 1).astype("int32"))
    return x, y


def _compiled_model(seed: int):
    import tensorflow as tf

    tf.keras.utils.set_random_seed(seed)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dense(3)])
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["sparse_categorical_accuracy"])
    return model


@pytest.mark.parametrize("source", [SEPARATE_NAMES, SAME_NAME], ids=["separate_names", "same_name"])
def test_converted_model_keeps_loaded_weights_and_trains_like_the_original(source, tmp_path):
    import tensorflow as tf

    x, y = _data()
    trained = _compiled_model(seed=7)
    trained.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)
    weights_file = str(tmp_path / "trained.weights.h5")
    trained.save_weights(weights_file)

    original = _compiled_model(seed=0)
    original.load_weights(weights_file)
    expected = original.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history

    model = _compiled_model(seed=0)
    model.load_weights(weights_file)   # the weights the program loaded before converting
    loaded = [w.copy() for w in model.get_weights()]
    with tpu_emulation.installed(8):
        converted = _run_migrated(source)(model, tf.distribute.cluster_resolver.TPUClusterResolver("t"))
        assert converted.distribute_strategy.num_replicas_in_sync == 8
        for got, want in zip(converted.get_weights(), loaded):
            np.testing.assert_array_equal(got, want)
        assert converted.optimizer.get_config()["learning_rate"] == np.float32(0.01)
        history = converted.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history
    # 8 replicas of 2 rows each against one batch of 16: the same mean loss and gradient,
    # summed in another order (float32).
    np.testing.assert_allclose(history["loss"], expected["loss"], rtol=1e-5)
    np.testing.assert_allclose(history["sparse_categorical_accuracy"],
                               expected["sparse_categorical_accuracy"], rtol=0)


# The colab pattern of 2018: convert an uncompiled model, then compile the TPU model (with a TF1
# optimizer, which keras_to_tpu_model required).
COMPILED_AFTER = '''import tensorflow as tf


def to_tpu(model, resolver):
  tpu_model = tf.contrib.tpu.keras_to_tpu_model(
      model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
  tpu_model.compile(optimizer=tf.train.AdamOptimizer(learning_rate=0.01),
                    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                    metrics=["sparse_categorical_accuracy"])
  return tpu_model
'''


def test_a_model_compiled_after_conversion_is_compiled_in_the_scope_with_tf1_adams_epsilon():
    import tensorflow as tf

    x, y = _data()
    original = _compiled_model(seed=0)
    original.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.01, epsilon=1e-8),
                     loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                     metrics=["sparse_categorical_accuracy"])
    expected = original.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history

    tf.keras.utils.set_random_seed(0)
    uncompiled = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                                      tf.keras.layers.Dense(3)])
    with tpu_emulation.installed(8):
        converted = _run_migrated(COMPILED_AFTER)(uncompiled, tf.distribute.cluster_resolver.TPUClusterResolver("t"))
        assert converted.optimizer.get_config()["epsilon"] == 1e-8
        history = converted.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history
    np.testing.assert_allclose(history["loss"], expected["loss"], rtol=1e-5)


# A plain name converted behind a condition and compiled after it on both paths: the strategy's
# name exists only where the conversion ran.
CONVERTED_UNDER_IF = '''import tensorflow as tf


def to_tpu(model, resolver, use_tpu):
  if use_tpu:
    model = tf.contrib.tpu.keras_to_tpu_model(
        model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
  model.compile(optimizer=tf.train.AdamOptimizer(learning_rate=0.01),
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=["sparse_categorical_accuracy"])
  return model
'''


@pytest.mark.parametrize("use_tpu", [True, False], ids=["converted", "condition_false"])
def test_a_name_converted_under_if_compiles_and_trains_on_both_paths(use_tpu):
    import contextlib

    import tensorflow as tf

    x, y = _data()
    original = _compiled_model(seed=0)
    original.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.01, epsilon=1e-8),
                     loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                     metrics=["sparse_categorical_accuracy"])
    expected = original.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history

    tf.keras.utils.set_random_seed(0)
    uncompiled = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                                      tf.keras.layers.Dense(3)])
    with tpu_emulation.installed(8) if use_tpu else contextlib.nullcontext():
        to_tpu = _run_migrated(CONVERTED_UNDER_IF)
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver("t") if use_tpu else None
        model = to_tpu(uncompiled, resolver, use_tpu)
        assert model.distribute_strategy.num_replicas_in_sync == (8 if use_tpu else 1)
        assert (model is uncompiled) == (not use_tpu)
        history = model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history
    np.testing.assert_allclose(history["loss"], expected["loss"], rtol=1e-5)
    np.testing.assert_array_equal(history["sparse_categorical_accuracy"], expected["sparse_categorical_accuracy"])
