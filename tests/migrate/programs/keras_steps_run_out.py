"""A TF 1.x Keras program whose fit asks for more steps than its data holds: steps_per_epoch=3 for
2 epochs on 10 rows in batches of 4 (3 batches, the last short) and on 8 rows (2 batches), fed as a
finite tf.data dataset, a keras Sequence and a finite Python generator. Prints, per input, the epoch
losses and the trained kernel (which tells how many steps ran), as JSON."""
import json

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
x = rs.uniform(-1, 1, size=(10, 3)).astype(np.float32)
y = rs.uniform(-1, 1, size=(10, 1)).astype(np.float32)


class Batches(tf.keras.utils.Sequence):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return -(-self.rows // 4)

    def __getitem__(self, index):
        return x[index * 4:min(index * 4 + 4, self.rows)], y[index * 4:min(index * 4 + 4, self.rows)]


def finite(rows):
    for start in range(0, rows, 4):
        yield x[start:min(start + 4, rows)], y[start:min(start + 4, rows)]


def model():
    built = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    weights = np.random.RandomState(1)
    built.set_weights([weights.uniform(-0.7, 0.7, w.shape).astype(np.float32) for w in built.get_weights()])
    built.compile(tf.keras.optimizers.SGD(0.1), "mse")
    return built


results = {"tensorflow": tf.__version__}
for rows in (8, 10):
    inputs = {"dataset": lambda: tf.data.Dataset.from_tensor_slices((x[:rows], y[:rows])).batch(4),
              "sequence": lambda: Batches(rows), "generator": lambda: finite(rows)}
    for name, data in inputs.items():
        trained = model()
        try:
            history = trained.fit(data(), steps_per_epoch=3, epochs=2, verbose=0, shuffle=False)
            losses = [float(v) for v in history.history.get("loss", [])]
        except Exception as error:  # noqa: BLE001 - what each Keras does is the measurement
            losses = "%s: %s" % (type(error).__name__, str(error).splitlines()[0][:120])
        results["%s_%d" % (name, rows)] = {"loss": losses,
                                           "kernel": [float(v) for v in trained.get_weights()[0].ravel()]}
print(json.dumps(results))
