"""Keras 2's `metrics_names` read beside evaluate's list (oracle program).

The everyday TF 2.x pattern (`result = dict(zip(model.metrics_names, model.evaluate(...)))`,
`scores[model.metrics_names.index('accuracy')]`, `for name, value in zip(model.metrics_names,
results)`: 10 of 10 hits for "zip(model.metrics_names" in the search corpus are this) on a model
compiled with two metrics, fed by a tf.data pipeline. Runs on TF 2.15 (Keras 2) and, migrated, on
Keras 3. Prints one JSON line.
"""

import json

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
x = rng.rand(32, 4).astype(np.float32)
y = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 32)]
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(8).prefetch(tf.data.AUTOTUNE)

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation='softmax')])
model.set_weights([np.full(w.shape, 0.1, np.float32) for w in model.get_weights()])
model.compile(optimizer='sgd', loss='categorical_crossentropy', metrics=['accuracy', 'mae'])
model.fit(dataset, epochs=1, verbose=0)

result = model.evaluate(dataset, verbose=0)
named = dict(zip(model.metrics_names, result))
accuracy = result[model.metrics_names.index('accuracy')]
print(json.dumps({"tensorflow": tf.__version__, "names": list(model.metrics_names),
                  "named": {k: float(v) for k, v in named.items()}, "accuracy": float(accuracy)}))
