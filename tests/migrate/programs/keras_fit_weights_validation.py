"""TF 1.x Keras `fit` on numpy arrays and a Sequence with `shuffle=False` and validation arrays, with
`class_weight`, and with `class_weight` and `sample_weight` together. TF 1.15's array loop shuffled the
validation rows with numpy's global generator after every epoch's training even with `shuffle=False`
(its validation pass ran with the loop's default shuffle=True), which moves a per-batch metric (`rmse`)
and every later numpy draw; it turned `class_weight` into sample weights (times `sample_weight`) per
row. Every case starts from the same weights with numpy and `random` seeded; prints one JSON line:
per case the history and kernel, and the next number numpy draws after it (or the error fit raised)."""
import json
import random

import numpy as np
import tensorflow as tf


def rmse(y_true, y_pred):
    return tf.sqrt(tf.reduce_mean(tf.square(y_pred - y_true)))


rs = np.random.RandomState(0)
x = rs.rand(40, 3).astype(np.float32)
y = (x @ np.array([1.0, -2.0, 3.0], np.float32) > 1.0).astype(np.float32).reshape(-1, 1)
weights = rs.uniform(0.5, 1.5, size=(40,))


class Batches(tf.keras.utils.Sequence):
    def __len__(self):
        return 5

    def __getitem__(self, index):
        return x[index * 8:(index + 1) * 8], y[index * 8:(index + 1) * 8]


def build():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    start = np.random.RandomState(1)
    model.set_weights([start.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy", metrics=[rmse])
    return model


def case(fit):
    np.random.seed(3)
    model = build()
    random.seed(3)   # after the model: Keras 3 and tf-keras seed initializers from Python's random
    try:
        history = fit(model)
    except (TypeError, ValueError) as error:   # a side that refuses the call: its message
        return {"error": f"{type(error).__name__}: {error}"}
    return {"history": {key: [float(v) for v in values] for key, values in sorted(history.history.items())},
            "kernel": model.get_weights()[0].ravel().tolist(), "next_draw": float(np.random.random())}


cases = {
    "unshuffled_validation_data": case(lambda model: model.fit(
        x[:24], y[:24], batch_size=8, epochs=3, shuffle=False, validation_data=(x[24:], y[24:]), verbose=0)),
    "unshuffled_validation_split": case(lambda model: model.fit(
        x, y, batch_size=8, epochs=3, shuffle=False, validation_split=0.25, verbose=0)),
    "class_weight": case(lambda model: model.fit(
        x, y, batch_size=8, epochs=3, class_weight={0: 1.0, 1: 3.0}, verbose=0)),
    "class_and_sample_weight": case(lambda model: model.fit(
        x, y, batch_size=8, epochs=3, class_weight={0: 1.0, 1: 3.0}, sample_weight=weights,
        validation_split=0.25, verbose=0)),
    "sample_weight_steps": case(lambda model: model.fit(
        x, y, steps_per_epoch=3, epochs=2, sample_weight=weights, verbose=0)),
    "sequence_class_weight": case(lambda model: model.fit(
        Batches(), epochs=3, class_weight={0: 1.0, 1: 3.0}, verbose=0)),
}
print(json.dumps({"tensorflow": tf.__version__, "cases": cases}))
