"""A TF 1.x Keras regression model with its own metric functions, as training-data-analyst's Taxifare
notebook (2019) wrote them: `rmse` and `mae` on a `Dense(1)` output (batch, 1) against labels of shape
(batch,), which TF 1.x's Keras brought to one rank before calling them. Seeded start weights, no
shuffling (no validation_data either: TF 1.15's fit shuffled validation arrays even with shuffle=False,
which moves a per-batch metric like rmse). Prints the numbers as JSON."""
import json

import numpy as np
import tensorflow as tf


def rmse(y_true, y_pred):
    return tf.sqrt(tf.reduce_mean(tf.square(y_pred - y_true)))


def mae(y_true, y_pred):
    return tf.reduce_mean(tf.abs(y_pred - y_true))


rs = np.random.RandomState(0)
x = rs.rand(32, 3).astype(np.float32)
y = (x @ np.array([1.0, -2.0, 3.0], np.float32) + 0.5).astype(np.float32)   # shape (32,)
model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu", input_shape=(3,)), tf.keras.layers.Dense(1)])
start = np.random.RandomState(1)
model.set_weights([start.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mean_squared_error", metrics=[rmse, mae])
history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
scores = model.evaluate(x[:16], y[:16], batch_size=8, verbose=0)
print(json.dumps({"tensorflow": tf.__version__, "keys": sorted(history.history), "evaluate": [float(v) for v in scores],
                  **{key: [float(v) for v in values] for key, values in history.history.items()}}))
