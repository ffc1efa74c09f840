"""TF 2.x Keras `fit` on a keras.utils.Sequence (shuffled, as fit's default) of a model built under a
tf.distribute strategy's scope: the default strategy, a one-device MirroredStrategy and a MirroredStrategy
over two logical CPUs. TF 2.15's Keras read the Sequence through one generator per epoch, its order drawn
with Python's `random.shuffle` when the epoch's first batch was read. Same start weights in every case,
numpy, `random` and TensorFlow seeded; prints one JSON line: per case the history, the kernel and the next
numbers `random` and numpy draw after the fit."""
import json
import random

import numpy as np
import tensorflow as tf

tf.config.set_logical_device_configuration(tf.config.list_physical_devices("CPU")[0],
                                           [tf.config.LogicalDeviceConfiguration()] * 2)

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
    tf.random.set_seed(3)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                                     tf.keras.layers.Dense(1, activation="sigmoid")])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy")
        start = np.random.RandomState(1)
        model.set_weights([start.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    random.seed(3)   # after the model: Keras 3 and tf-keras seed initializers from Python's random
    history = model.fit(Batches(), epochs=3, verbose=0)
    return {"history": {key: [float(v) for v in values] for key, values in sorted(history.history.items())},
            "kernel": model.get_weights()[0].ravel().tolist(), "next_draw": float(np.random.random()),
            "next_random": random.random()}


cases = {"default": case(tf.distribute.get_strategy()),
         "mirrored_one_cpu": case(tf.distribute.MirroredStrategy(["/cpu:0"])),
         "mirrored_two_cpus": case(tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]))}
print(json.dumps({"tensorflow": tf.__version__, "cases": cases}))
