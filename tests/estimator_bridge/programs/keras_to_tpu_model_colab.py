"""A 2018 Keras TPU colab's shape, unchanged, for the compat runner (oracle program).

tensorflow/tpu and training-data-analyst colabs of 2018: `TPUDistributionStrategy(resolver)`,
`keras_to_tpu_model(model, strategy=...)`, compile the TPU model after converting (a TF1 optimizer),
`fit(<function returning a dataset>, steps_per_epoch=...)` with the per-core batch, then
`sync_to_cpu()`. On TF 1.15 (no TPU) `--cpu` trains the CPU model on the global batch (8 per core
x 2 cores). Prints one JSON line: losses, TF 1.x's 'acc' history key, the trained weights' sums.
"""

import json
import sys

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
x = rng.rand(64, 4).astype(np.float32); y = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 64)]


def train_fn():
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(8, drop_remainder=True)


def valid_fn():
    return tf.data.Dataset.from_tensor_slices((x[48:], y[48:])).repeat().batch(8, drop_remainder=True)


model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation='relu', input_shape=(4,)), tf.keras.layers.Dense(3, activation='softmax')])
model.set_weights([np.random.RandomState(i).uniform(-0.5, 0.5, w.shape).astype(np.float32) for i, w in enumerate(model.get_weights())])
if "--cpu" in sys.argv:  # TF 1.15 without a TPU: the CPU model at the global batch (8 per core x 2)
    model.compile(optimizer=tf.train.GradientDescentOptimizer(0.1), loss='categorical_crossentropy', metrics=['accuracy'])
    h = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16, drop_remainder=True), steps_per_epoch=4, epochs=2,
                  validation_data=tf.data.Dataset.from_tensor_slices((x[48:], y[48:])).repeat().batch(16), validation_steps=1,
                  verbose=0)
    trained = model
else:
    strategy = tf.contrib.tpu.TPUDistributionStrategy(tf.contrib.cluster_resolver.TPUClusterResolver('emulated'))
    tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
    tpu_model.compile(optimizer=tf.train.GradientDescentOptimizer(0.1), loss='categorical_crossentropy', metrics=['accuracy'])
    h = tpu_model.fit(train_fn, steps_per_epoch=4, epochs=2, validation_data=valid_fn, validation_steps=1, verbose=0)
    trained = tpu_model.sync_to_cpu()
print(json.dumps({"loss": [float(v) for v in h.history['loss']], "acc": [float(v) for v in h.history['acc']],
                  "val_loss": [float(v) for v in h.history['val_loss']],
                  "weights": [float(np.sum(w)) for w in trained.get_weights()]}))
