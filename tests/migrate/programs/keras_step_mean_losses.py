"""A TF 1.x Keras program whose generator, Sequence and dataset batches end short (10 rows in batches of
4: 4, 4, 2): fit_generator with validation, evaluate_generator, evaluate on a generator, a Sequence and a
tf.data dataset with steps, predict_generator. TF 1.15 averaged the loss over steps (each step's mean
loss counted once, the short batch as much as a full one); the metrics (stateful) over samples. Prints
the numbers as JSON."""
import json

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
x = rs.uniform(-1, 1, size=(10, 3)).astype(np.float32)
y = rs.uniform(-1, 1, size=(10, 1)).astype(np.float32)


def batches():
    while True:
        for start in range(0, 10, 4):
            yield x[start:start + 4], y[start:start + 4]


class Batches(tf.keras.utils.Sequence):
    def __len__(self):
        return 3

    def __getitem__(self, index):
        return x[index * 4:index * 4 + 4], y[index * 4:index * 4 + 4]


model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)), tf.keras.layers.Dense(1)])
weights = np.random.RandomState(1)
model.set_weights([weights.uniform(-0.7, 0.7, w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
history = model.fit_generator(batches(), steps_per_epoch=3, epochs=2, verbose=0, validation_data=Batches(),
                              validation_steps=3)
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)


def plain(value):
    return [float(v) for v in value] if isinstance(value, (list, tuple)) else float(value)


print(json.dumps({
    "tensorflow": tf.__version__,
    "loss": plain(history.history["loss"]), "val_loss": plain(history.history["val_loss"]),
    "mae": plain(history.history["mean_absolute_error" if "mean_absolute_error" in history.history else "mae"]),
    "evaluate_generator": plain(model.evaluate_generator(batches(), steps=3)),
    "evaluate_generator_sequence": plain(model.evaluate_generator(Batches())),
    "evaluate_on_generator": plain(model.evaluate(batches(), steps=3, verbose=0)),
    "evaluate_on_dataset": plain(model.evaluate(dataset, steps=3, verbose=0)),
    "evaluate_on_arrays": plain(model.evaluate(x, y, batch_size=4, verbose=0)),
    "predict_generator": model.predict_generator(batches(), steps=3).ravel().tolist(),
}))
