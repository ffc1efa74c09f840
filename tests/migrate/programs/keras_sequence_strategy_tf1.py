"""TF 1.x Keras `fit` on a keras.utils.Sequence (shuffled, fit's default) of a model built under the default
strategy's scope and under a one-device MirroredStrategy. TF 1.15 read the Sequence of a model of the
default strategy like any other (one stream, Python's `random` order per pass); under MirroredStrategy
its fit took tf.data datasets only and raised AssertionError (`_distribution_standardize_user_data`).
Same start weights in every case; prints one JSON line: per case the history, the kernel and the next
number numpy draws after the fit (or the error fit raised)."""
import json
import random

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
x = rs.rand(40, 3).astype(np.float32)
y = (x @ np.array([1.0, -2.0, 3.0], np.float32) > 1.0).astype(np.float32).reshape(-1, 1)


class Batches(tf.keras.utils.Sequence):
    def __len__(self):
        return 5

    def __getitem__(self, index):
        return x[index * 8:(index + 1) * 8], y[index * 8:(index + 1) * 8]


def case(strategy):
    np.random.seed(3)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                                     tf.keras.layers.Dense(1, activation="sigmoid")])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy")
        start = np.random.RandomState(1)   # after compile: TF 1.15 lost weights set before under a strategy
        model.set_weights([start.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    random.seed(3)   # after the model: Keras 3 and tf-keras seed initializers from Python's random
    try:
        history = model.fit(Batches(), epochs=3, verbose=0)
    except Exception as error:   # a side that refuses the call: its type and message
        return {"error": f"{type(error).__name__}: {error}"}
    return {"history": {key: [float(v) for v in values] for key, values in sorted(history.history.items())},
            "kernel": model.get_weights()[0].ravel().tolist(), "next_draw": float(np.random.random())}


cases = {"default": case(tf.distribute.get_strategy()), "mirrored": case(tf.distribute.MirroredStrategy(["/cpu:0"]))}
print(json.dumps({"tensorflow": tf.__version__, "cases": cases}))
