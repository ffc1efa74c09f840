"""A TF 1.x Keras program that fits on keras Sequences and on tf.data datasets, the cases where TF 1.x's
loops served other batches or reported another loss than Keras 3 and tf-keras:
- a Sequence shuffled (`fit_generator(seq, shuffle=True)`, `fit(seq)` whose shuffle defaults to True):
  TF 1.x drew each pass's order with Python's `random` (seeded before each fit);
- a Sequence shorter than steps_per_epoch (TF 1.x cycled through it, one enqueuer for the whole fit),
  shuffled or not, and one longer (the next epoch went on where the last stopped);
- a Sequence whose on_epoch_end reorders its rows with numpy;
- a dataset with and without steps_per_epoch (TF 1.x's training loss: the mean of the step losses).
9 or 10 rows in batches of 2 or 4, the last short. Prints, per case, the epoch losses and the trained
kernel (which tells which batches trained, in which order), as JSON."""
import json
import random

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
x = rs.uniform(-1, 1, size=(10, 3)).astype(np.float32)
y = rs.uniform(-1, 1, size=(10, 1)).astype(np.float32)


class Batches(tf.keras.utils.Sequence):
    def __init__(self, rows, size):
        self.rows, self.size = rows, size

    def __len__(self):
        return -(-self.rows // self.size)

    def __getitem__(self, index):
        end = min(index * self.size + self.size, self.rows)
        return x[index * self.size:end], y[index * self.size:end]


class Reordered(Batches):
    """The rows in an order its on_epoch_end draws from numpy (the everyday Sequence pattern)."""
    order = np.arange(10)

    def __getitem__(self, index):
        rows = self.order[index * self.size:min(index * self.size + self.size, self.rows)]
        return x[rows], y[rows]

    def on_epoch_end(self):
        np.random.shuffle(self.order)


def model(metrics=()):
    built = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    weights = np.random.RandomState(1)
    built.set_weights([weights.uniform(-0.7, 0.7, w.shape).astype(np.float32) for w in built.get_weights()])
    built.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=list(metrics))
    return built


def dataset():
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(4)


def shuffled_generator(m):
    return m.fit_generator(Batches(9, 2), epochs=3, verbose=0, shuffle=True)


def shuffled_fit(m):
    return m.fit(Batches(9, 2), epochs=3, verbose=0)


def unshuffled_fit(m):
    return m.fit(Batches(9, 2), epochs=2, verbose=0, shuffle=False)


def short_shuffled(m):
    return m.fit_generator(Batches(9, 2), steps_per_epoch=7, epochs=2, verbose=0)


def short_unshuffled(m):
    return m.fit_generator(Batches(8, 4), 3, 2, verbose=0, shuffle=False)


def long_unshuffled(m):
    return m.fit(Batches(9, 2), steps_per_epoch=3, epochs=3, verbose=0, shuffle=False)


def reordered(m):
    return m.fit(Reordered(10, 4), epochs=3, verbose=0, shuffle=False)


def dataset_steps(m):
    return m.fit(dataset().repeat(), steps_per_epoch=3, epochs=2, verbose=0)


def dataset_whole(m):
    return m.fit(dataset(), epochs=2, verbose=0)


def dataset_steps_mae(m):
    return m.fit(dataset().repeat(), steps_per_epoch=3, epochs=2, verbose=0)


CASES = [shuffled_generator, shuffled_fit, unshuffled_fit, short_shuffled, short_unshuffled, long_unshuffled,
         reordered, dataset_steps, dataset_whole, dataset_steps_mae]

results = {"tensorflow": tf.__version__}
for number, case in enumerate(CASES):
    trained = model(["mae"] if case is dataset_steps_mae else ())
    # seeded after the model is built: Keras 3 and tf-keras draw their initializers' seeds from Python's
    # random (TF 1.x's did not), which would move every order drawn after them
    random.seed(number)
    np.random.seed(number)
    try:
        history = case(trained).history
        # TF 1.15 names the metric's history 'mean_absolute_error', Keras 3 and tf-keras 'mae'
        result = {key.replace("mean_absolute_error", "mae"): [float(v) for v in values] for key, values in history.items()}
    except Exception as error:  # noqa: BLE001 - what each Keras does is the measurement
        result = {"error": "%s: %s" % (type(error).__name__, str(error).splitlines()[0][:120])}
    result["kernel"] = [float(v) for v in trained.get_weights()[0].ravel()]
    results[case.__name__] = result
print(json.dumps(results))
