"""TF 1.x Keras: crossentropies compiled on another activation than their own, each loss written in
`compile` (a string or a `tf.keras.losses` function, as programs write them). Prints the first loss
(`train_on_batch`) and the loss after one step (`evaluate`) of each as JSON."""

import json

import numpy as np
import tensorflow as tf

x = np.random.RandomState(0).randn(16, 6).astype(np.float32)
labels = np.random.RandomState(1).randint(0, 4, 16)
one_hot = np.eye(4, dtype=np.float32)[labels]
kernel = np.random.RandomState(2).uniform(-1.5, 1.5, (6, 4)).astype(np.float32)
bias = np.random.RandomState(3).uniform(-0.5, 0.5, 4).astype(np.float32)


def model_of(activation):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation=activation, input_shape=(6,))])
    model.set_weights([kernel, bias])
    return model


def losses(model, y):
    first = model.train_on_batch(x, y)
    after = model.evaluate(x, y, verbose=0)
    return [float(np.ravel(first)[0]), float(np.ravel(after)[0])]


results = {}
model = model_of("sigmoid")
model.compile(tf.keras.optimizers.SGD(0.5), loss="sparse_categorical_crossentropy")
results["sigmoid sparse_categorical_crossentropy"] = losses(model, labels)
model = model_of("sigmoid")
model.compile(tf.keras.optimizers.SGD(0.5), "categorical_crossentropy")
results["sigmoid categorical_crossentropy"] = losses(model, one_hot)
model = model_of("sigmoid")
model.compile(tf.keras.optimizers.SGD(0.5), loss=tf.keras.losses.categorical_crossentropy)
results["sigmoid categorical_crossentropy function"] = losses(model, one_hot)
model = model_of("softmax")
model.compile(tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy")
results["softmax binary_crossentropy"] = losses(model, one_hot)
model = model_of("softmax")
model.compile(tf.keras.optimizers.SGD(0.5), loss="categorical_crossentropy")
results["softmax categorical_crossentropy"] = losses(model, one_hot)
model = model_of("softmax")
model.compile(tf.keras.optimizers.SGD(0.5), loss=tf.keras.losses.sparse_categorical_crossentropy)
results["softmax sparse_categorical_crossentropy function"] = losses(model, labels)
model = model_of("sigmoid")
model.compile(tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy")
results["sigmoid binary_crossentropy"] = losses(model, one_hot)
print(json.dumps(results))
