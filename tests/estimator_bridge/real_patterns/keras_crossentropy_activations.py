"""A TF 1.x Keras program whose crossentropies meet another activation than their own.

`Dense(4, activation=A)` compiled with loss L, for (A, L) in CASES; the first loss
(`train_on_batch`) and the loss after one step (`evaluate`) of each, printed as JSON. The losses
are given as strings and as `tf.keras.losses` functions.
"""

import json

import numpy as np
import tensorflow as tf

CASES = [
    ("sigmoid", "sparse_categorical_crossentropy"),
    ("sigmoid", "categorical_crossentropy"),
    ("softmax", "binary_crossentropy"),
    ("softmax", "categorical_crossentropy"),
    ("sigmoid", "binary_crossentropy"),
    ("softmax", "sparse_categorical_crossentropy"),
]
x = np.random.RandomState(0).randn(16, 6).astype(np.float32)
labels = np.random.RandomState(1).randint(0, 4, 16)
one_hot = np.eye(4, dtype=np.float32)[labels]
kernel = np.random.RandomState(2).uniform(-1.5, 1.5, (6, 4)).astype(np.float32)
bias = np.random.RandomState(3).uniform(-0.5, 0.5, 4).astype(np.float32)

results = {}
for activation, loss in CASES:
    for given in ("string", "function"):
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation=activation, input_shape=(6,))])
        model.set_weights([kernel, bias])
        model.compile(tf.keras.optimizers.SGD(0.5), loss if given == "string" else getattr(tf.keras.losses, loss))
        y = labels if loss.startswith("sparse") else one_hot
        first = model.train_on_batch(x, y)
        after = model.evaluate(x, y, verbose=0)
        results["%s %s %s" % (activation, loss, given)] = [float(np.ravel(first)[0]), float(np.ravel(after)[0])]
print(json.dumps(results))
