"""A TF 1.x Keras program that passes compile's metrics positionally, as koshian2/affinity-loss's
cnn_cifar_affinity.py (2019, heldout5) did: `model.compile("adam", affinity_loss(0.43), [acc])` with a
custom loss and a custom metric. Keras 3 put loss_weights third, so the list of metric functions went to
loss_weights and compile failed. Fixed initial weights; prints the history and an evaluation as JSON."""
import json

import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.keras.models import Model
import tensorflow.keras.backend as K


def margin_loss(margin):
    def loss(y_true, y_pred):
        correct = tf.reduce_sum(y_true * y_pred, axis=-1, keepdims=True)
        return tf.reduce_sum(tf.maximum(margin + y_pred - correct, 0.0) * (1.0 - y_true), axis=-1)
    return loss


def acc(y_true, y_pred):
    equals = K.cast(K.equal(K.argmax(y_true, axis=-1), K.argmax(y_pred, axis=-1)), "float")
    return K.mean(equals)


rng = np.random.RandomState(0)
x = rng.rand(32, 6).astype("float32")
y = np.eye(4, dtype="float32")[rng.randint(0, 4, 32)]
inputs = layers.Input((6,))
hidden = layers.Dense(8, activation="relu")(inputs)
model = Model(inputs, layers.Dense(4)(hidden))
model.set_weights([(0.5 * rng.randn(*w.shape)).astype("float32") for w in model.get_weights()])
model.compile("adam", margin_loss(0.43), [acc])
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0).history
print(json.dumps({"tensorflow": tf.__version__, "loss": [float(v) for v in history["loss"]],
                  "acc": [float(v) for v in history["acc"]],
                  "evaluate": [float(v) for v in model.evaluate(x, y, batch_size=8, verbose=0)]}))
