"""A 2019-style TF 1.x Keras program: a TF1 optimizer in `compile`, `fit_generator` with a float
`steps_per_epoch` (np.ceil(n / batch)), and `save_weights` / `load_weights` to paths built at run time
(`os.path.join(work_dir, "start.h5")` held in a variable; a checkpoint name built with `%`).
Fixed initial weights, synthetic data; prints history, evaluation and final weights as JSON.

  python keras_2019_weights_paths.py WORK_DIR
"""
import json
import os
import sys

import numpy as np
import tensorflow as tf

work_dir = sys.argv[1]
rng = np.random.RandomState(0)
x = rng.normal(size=(96, 6)).astype(np.float32)
y = (x @ rng.normal(size=(6, 1)) + 0.1).astype(np.float32)
BATCH = 20


def batches():
  """Batches of BATCH rows, wrapping around the data (TF 1.15's evaluate_generator averaged the loss
  over steps unweighted, Keras 3 by rows: equal batches keep the comparison about the paths)."""
  start = 0
  while True:
    rows = np.arange(start, start + BATCH) % len(x)
    start += BATCH
    yield x[rows], y[rows]


model = tf.keras.models.Sequential([tf.keras.layers.Dense(8, activation="tanh", input_shape=(6,)),
                                    tf.keras.layers.Dense(1)])
weights = np.random.RandomState(1)
model.set_weights([weights.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(optimizer=tf.train.AdamOptimizer(0.01), loss="mse", metrics=["mae"])

start_weights = os.path.join(work_dir, "start.h5")
model.save_weights(start_weights)
steps = np.ceil(len(x) / float(BATCH))
history = model.fit_generator(batches(), steps_per_epoch=steps, epochs=3, verbose=0)
model.load_weights(start_weights)
again = model.fit_generator(batches(), steps_per_epoch=steps, epochs=3, verbose=0)
final_weights = "%s/final_%d.h5" % (work_dir, 3)
model.save_weights(final_weights)
model.load_weights(final_weights)
scores = model.evaluate_generator(batches(), steps=steps)
print(json.dumps({"tensorflow": tf.__version__,
                  "loss": [float(v) for v in history.history["loss"]],
                  "again": [float(v) for v in again.history["loss"]],
                  "evaluate": [float(v) for v in scores],
                  "weights": [w.tolist() for w in model.get_weights()]}))
