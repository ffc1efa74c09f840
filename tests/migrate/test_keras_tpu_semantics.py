"""The code KerasToTPUStrategy writes runs on Keras 3 and trains exactly like the original model.

No TPU here: the emitted `with strategy.scope(): clone_model / set_weights / compile_from_config`
runs under the default strategy and under a one-device strategy, and must give the same losses
as fitting the original compiled model.
"""

import os

import numpy as np

from migrate.engine import migrate_text

SOURCE = '''import tensorflow as tf


def to_tpu(model, resolver):
  strategy = tf.contrib.tpu.TPUDistributionStrategy(resolver)
  tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
  return tpu_model
'''


def test_emitted_keras_code_trains_like_the_original_model():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    migrated, findings = migrate_text(SOURCE)
    assert findings == []
    # Run the emitted body with a CPU strategy in place of the TPU connection calls.
    body = migrated.split("  strategy = tf.distribute.TPUStrategy(resolver)\n")[1]
    namespace = {"tf": tf}
    exec("def to_strategy(model, strategy):\n" + body, namespace)

    def compiled_model():
        tf.keras.utils.set_random_seed(0)
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                                     tf.keras.layers.Dense(3)])
        model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.01),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        return model

    x = np.random.RandomState(0).randn(64, 4).astype("float32")
    y = (x[:, 0] > 0).astype("int32") + (x[:, 1] > 1).astype("int32")
    original = compiled_model()
    expected = original.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history["loss"]
    converted = namespace["to_strategy"](compiled_model(), tf.distribute.OneDeviceStrategy("/cpu:0"))
    assert converted.optimizer.get_config()["learning_rate"] == np.float32(0.01)
    losses = converted.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history["loss"]
    np.testing.assert_allclose(losses, expected, rtol=1e-6)
