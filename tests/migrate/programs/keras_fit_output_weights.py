"""TF 1.x Keras `fit` on numpy arrays of a two-output model with `class_weight` per output (a dict by output
name, a list in output order, a dict for one output only), with `sample_weight` per output, with
`steps_per_epoch`, on a Sequence, and `fit(..., shuffle="batch")` on a one-output model. TF 1.15 turned each output's
`class_weight` into per-row weights of that output's labels (times that output's `sample_weight`) before
batching, fed the whole arrays at every step with `steps_per_epoch`, and with shuffle="batch" shuffled the
order of whole batch-sized chunks of the rows with numpy (the rows past the last whole chunk stay last).
Every case starts from the same weights, numpy and `random` seeded; prints one JSON line: per case the
history and kernel and the next number numpy draws after it (or the error fit raised)."""
import json
import random

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
x = rs.rand(40, 3).astype(np.float32)
ya = (x @ np.array([1.0, -2.0, 3.0], np.float32) > 1.0).astype(np.float32).reshape(-1, 1)
yb = (x @ np.array([-1.0, 2.0, 1.0], np.float32) > 1.0).astype(np.float32).reshape(-1, 1)
wa = rs.uniform(0.5, 1.5, size=(40,))
wb = rs.uniform(0.5, 1.5, size=(40,))


class TwoOutputBatches(tf.keras.utils.Sequence):
    def __len__(self):
        return 5

    def __getitem__(self, index):
        rows = slice(index * 8, (index + 1) * 8)
        return x[rows], [ya[rows], yb[rows]]


def two_outputs():
    inputs = tf.keras.layers.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(4, activation="tanh")(inputs)
    model = tf.keras.Model(inputs, [tf.keras.layers.Dense(1, activation="sigmoid", name="a")(hidden),
                                    tf.keras.layers.Dense(1, activation="sigmoid", name="b")(hidden)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy")
    return model


def one_output():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy")
    return model


def case(build, fit):
    np.random.seed(3)
    model = build()
    start = np.random.RandomState(1)
    model.set_weights([start.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    random.seed(3)   # after the model: Keras 3 and tf-keras seed initializers from Python's random
    try:
        history = fit(model)
    except Exception as error:   # a side that refuses the call: its message
        return {"error": f"{type(error).__name__}: {error}"}
    return {"history": {key: [float(v) for v in values] for key, values in sorted(history.history.items())},
            "kernel": model.get_weights()[0].ravel().tolist(), "next_draw": float(np.random.random())}


CLASSES = {"a": {0: 1.0, 1: 3.0}, "b": {0: 2.0, 1: 1.0}}
cases = {
    "class_weight_by_name": case(two_outputs, lambda model: model.fit(
        x, [ya, yb], batch_size=8, epochs=3, class_weight=CLASSES, verbose=0)),
    "class_weight_list_labels_by_name": case(two_outputs, lambda model: model.fit(
        x, {"a": ya, "b": yb}, batch_size=8, epochs=3, class_weight=[CLASSES["a"], CLASSES["b"]], verbose=0)),
    "class_weight_one_output_sample_weight_validation": case(two_outputs, lambda model: model.fit(
        x, [ya, yb], batch_size=8, epochs=3, class_weight={"b": CLASSES["b"]}, sample_weight={"a": wa, "b": wb},
        validation_split=0.2, verbose=0)),   # whole batches: see the test's docstring
    "class_and_sample_weight_steps": case(two_outputs, lambda model: model.fit(
        x, [ya, yb], steps_per_epoch=3, epochs=2, class_weight=CLASSES, sample_weight=[wa, wb], verbose=0)),
    "sequence_class_weight_by_name": case(two_outputs, lambda model: model.fit(
        TwoOutputBatches(), epochs=3, class_weight=CLASSES, verbose=0)),
    "sample_weight_steps_validation_data": case(one_output, lambda model: model.fit(
        x[:32], ya[:32], batch_size=8, steps_per_epoch=3, epochs=2, sample_weight=wa[:32],
        validation_data=(x[32:], ya[32:]), verbose=0)),
    "shuffle_batch": case(one_output, lambda model: model.fit(
        x[:36], ya[:36], batch_size=8, epochs=3, shuffle="batch", verbose=0)),
    "shuffle_batch_validation_class_weight": case(one_output, lambda model: model.fit(
        x, ya, batch_size=8, epochs=3, shuffle="batch", validation_split=0.25, class_weight=CLASSES["a"],
        verbose=0)),
}
print(json.dumps({"tensorflow": tf.__version__, "cases": cases}))
