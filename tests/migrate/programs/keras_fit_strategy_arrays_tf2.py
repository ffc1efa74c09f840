"""TF 2.x Keras `fit` on numpy arrays of a model built and compiled under the default strategy's scope and
a one-device MirroredStrategy's, shuffled or not, with validation arrays. TF 2.15's Keras fed both alike
(a tf.data pipeline whose order comes from TensorFlow's seed). Same start weights in every case, numpy and
TensorFlow seeded; prints one JSON line: per case the history, the kernel and the next number numpy
draws after the fit."""
import json

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
x = rs.rand(40, 3).astype(np.float32)
y = (x @ np.array([1.0, -2.0, 3.0], np.float32) > 1.0).astype(np.float32).reshape(-1, 1)


def case(strategy, shuffle):
    np.random.seed(3)
    tf.random.set_seed(3)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                                     tf.keras.layers.Dense(1, activation="sigmoid")])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy")
        start = np.random.RandomState(1)
        model.set_weights([start.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    history = model.fit(x[:24], y[:24], batch_size=8, epochs=3, shuffle=shuffle, validation_data=(x[24:], y[24:]),
                        verbose=0)
    return {"history": {key: [float(v) for v in values] for key, values in sorted(history.history.items())},
            "kernel": model.get_weights()[0].ravel().tolist(), "next_draw": float(np.random.random())}


cases = {}
for shuffle in (True, False):
    cases[f"default_{shuffle}"] = case(tf.distribute.get_strategy(), shuffle)
    cases[f"mirrored_{shuffle}"] = case(tf.distribute.MirroredStrategy(["/cpu:0"]), shuffle)
print(json.dumps({"tensorflow": tf.__version__, "cases": cases}))
