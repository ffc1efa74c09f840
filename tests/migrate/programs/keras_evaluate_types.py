"""A TF 1.x Keras program that reads what `evaluate` / `evaluate_generator` return, without and with a
metric (a list then), on arrays, a dataset, a Sequence and a generator: the values, their type names and
whether each is a Python float (TF 1.15: the loss a numpy.float64, a float subclass json.dumps takes;
the metric a numpy.float32), and json.dumps of the loss. Prints them as JSON."""
import json

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
x = rs.uniform(-1, 1, size=(10, 3)).astype(np.float32)
y = rs.uniform(-1, 1, size=(10, 1)).astype(np.float32)


class Batches(tf.keras.utils.Sequence):
    def __len__(self):
        return 3

    def __getitem__(self, index):
        return x[index * 4:index * 4 + 4], y[index * 4:index * 4 + 4]


def batches():
    while True:
        for start in range(0, 10, 4):
            yield x[start:start + 4], y[start:start + 4]


results = {"tensorflow": tf.__version__}
for metrics in ([], ["mae"]):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    model.set_weights([np.random.RandomState(1).uniform(-0.7, 0.7, w.shape).astype(np.float32)
                       for w in model.get_weights()])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=metrics)
    calls = {"arrays": lambda: model.evaluate(x, y, batch_size=4, verbose=0),
             "dataset": lambda: model.evaluate(tf.data.Dataset.from_tensor_slices((x, y)).batch(4), steps=3, verbose=0),
             "sequence": lambda: model.evaluate(Batches(), verbose=0),
             "generator": lambda: model.evaluate_generator(batches(), steps=3)}
    for name, call in calls.items():
        value = call()
        values = value if isinstance(value, list) else [value]
        results["%s_%d" % (name, len(metrics))] = {
            "list": isinstance(value, list), "values": [float(v) for v in values],
            "types": [type(v).__name__ for v in values], "float": [isinstance(v, float) for v in values]}
    if not metrics:   # what json.dumps makes of the loss alone (TF 1.15: its digits)
        results["json"] = json.dumps(model.evaluate(x, y, batch_size=4, verbose=0))
print(json.dumps(results))
