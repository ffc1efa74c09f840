"""A 2019-style TF 1.x Keras program (no Estimator): what TF 1.15's tf.keras did, to the number.

TF1 optimizer in `compile`, `metrics=['accuracy']` (TF 1.x's history key 'acc'), `fit_generator`,
`fit` on whole arrays with `steps_per_epoch` and no batch size (TF 1.x fed the whole arrays at
every step), `save_weights` / `load_weights` to an `.h5` path built at run time, `predict` on 33
rows, `evaluate`, and the 2019 Colab version check through `distutils.version` (imported by TF
1.15's `import tensorflow`). Initial weights come from one numpy seed, so every TensorFlow starts
from the same numbers. Prints one JSON line.
"""

import json
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf

import distutils
if distutils.version.LooseVersion(tf.__version__) < '1.14':
    raise Exception('needs TensorFlow 1.14 or higher')

work_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
rng = np.random.RandomState(0)
x = rng.uniform(-1, 1, (64, 4)).astype(np.float32)
y = (x[:, :1] * 2 - x[:, 1:2] + 0.3).astype(np.float32)
labels = (x[:, 0] > 0).astype(np.int32)


def get_model(classes=None):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation="sigmoid", input_shape=(4,)),
        tf.keras.layers.Dense(classes or 1, activation="softmax" if classes else None)])
    weights = np.random.RandomState(1)
    model.set_weights([weights.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    return model


def generator():
    while True:
        for start in range(0, 64, 16):
            yield x[start:start + 16], y[start:start + 16]


results = {}
model = get_model()
model.compile(optimizer=tf.train.AdamOptimizer(0.01), loss="mean_squared_error",
              metrics=["mean_absolute_error"])
results["fit_generator"] = model.fit_generator(generator(), steps_per_epoch=4, epochs=2, verbose=0).history
results["fit_whole_arrays"] = model.fit(x, y, epochs=2, steps_per_epoch=2, verbose=0).history
model.save_weights(os.path.join(work_dir, "start.h5"))
restored = get_model()
restored.load_weights(os.path.join(work_dir, "start.h5"))
results["predict"] = restored.predict(x[:33]).ravel().tolist()
restored.compile(optimizer=tf.train.GradientDescentOptimizer(0.1), loss="mean_squared_error")
results["evaluate"] = restored.evaluate(x, y, batch_size=16, verbose=0)

classifier = get_model(classes=2)
classifier.compile(optimizer=tf.train.MomentumOptimizer(0.1, 0.9), loss="sparse_categorical_crossentropy",
                   metrics=["accuracy"])
results["classifier"] = classifier.fit(x, labels, batch_size=16, epochs=2, shuffle=False, verbose=0).history
results["weights"] = [w.ravel().tolist() for w in model.get_weights()]
print(json.dumps(results, default=float))
