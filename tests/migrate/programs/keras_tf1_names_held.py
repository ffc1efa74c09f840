"""A TF 1.x Keras program that reads Keras 2's names where the first rewrites did not reach (oracle program).

The shapes the Keras TPU notebooks of 2018-2019 use around training, each a gap left by the
earlier rewrites (docs/migrate.md, Keras section): the metrics list defined once and held in a
name (`METRICS = ['accuracy', 'mae']` ... `compile(metrics=METRICS)`), `model.metrics_names` read
right after compile (TF 1.15 named the compiled metrics there; Keras 3 builds them at the first
batch), the learning-rate curve guarded by `if 'lr' in history.history:` and read in a `for`
header, and `dict(zip(model.metrics_names, model.evaluate(...)))`. Weights come from seeded
generators so that every TensorFlow starts from the same numbers. Prints one JSON line.
"""

import json

import numpy as np
import tensorflow as tf

METRICS = ['accuracy', 'mae']

rng = np.random.RandomState(0)
features = rng.rand(48, 5).astype(np.float32)
labels = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 48)]

inputs = tf.keras.layers.Input(shape=[5])
hidden = tf.keras.layers.Dense(8, activation='relu')(inputs)
outputs = tf.keras.layers.Dense(3, activation='softmax')(hidden)
model = tf.keras.Model(inputs, outputs)
model.set_weights([np.random.RandomState(i).uniform(-0.5, 0.5, w.shape).astype(np.float32)
                   for i, w in enumerate(model.get_weights())])
model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=METRICS)
names_after_compile = list(model.metrics_names)

lr_callback = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.01 * 0.5 ** epoch)
history = model.fit(features, labels, batch_size=8, epochs=3, callbacks=[lr_callback],
                    shuffle=False, verbose=0)

rates = []
if 'lr' in history.history:
    rates = [float(rate) for rate in history.history['lr']]
halved = []
for rate in history.history['lr']:
    halved.append(float(rate) / 2)
scores = dict(zip(model.metrics_names, model.evaluate(features, labels, batch_size=8, verbose=0)))
print(json.dumps({"tensorflow": tf.__version__, "names_after_compile": names_after_compile,
                  "rates": rates, "halved": halved,
                  "accuracy": [float(v) for v in history.history['acc']],
                  "loss": [float(v) for v in history.history['loss']],
                  "scores": {k: float(v) for k, v in scores.items()}}))
