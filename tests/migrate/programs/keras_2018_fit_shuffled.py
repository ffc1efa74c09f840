"""A TF 1.x Keras program that fits numpy arrays with fit's default shuffle after seeding numpy
(GoogleCloudPlatform/cloudml-samples tpu/templates/tpu_keras/trainer.py, 2018: `np.random.seed(0)`,
`fit(sequences, labels, epochs=3)` with 1-D labels and tf.losses.log_loss). TF 1.15's Keras drew each
epoch's order with numpy's global generator.

Run as `python keras_2018_fit_shuffled.py`; prints one JSON line: the epoch losses of two fits (the
default batch size; then, on Keras' own loss, batch_size=16 with validation_split and sample
weights), the final weights and the
next number numpy's generator draws after training.
"""

import json

import numpy as np
import tensorflow as tf


def main():
    np.random.seed(0)
    inputs = tf.keras.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(4, activation=tf.nn.tanh)(inputs)
    model = tf.keras.Model(inputs=inputs, outputs=tf.keras.layers.Dense(1, activation=tf.nn.sigmoid)(hidden))
    rng = np.random.RandomState(1)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    model.compile(tf.train.GradientDescentOptimizer(learning_rate=0.5), tf.losses.log_loss)
    x = np.random.random((70, 3))
    y = np.random.randint(0, 2, size=(70,))
    first = model.fit(x, y, epochs=2, verbose=0)
    model.compile(tf.train.GradientDescentOptimizer(learning_rate=0.5), "binary_crossentropy")
    weights = np.random.uniform(0.5, 1.5, size=(70,))
    second = model.fit(x, y, batch_size=16, epochs=2, validation_split=0.25, sample_weight=weights, verbose=0)
    print(json.dumps({"tensorflow": tf.__version__,
                      "loss": first.history["loss"] + second.history["loss"],
                      "val_loss": second.history["val_loss"],
                      "weights": [w.ravel().tolist() for w in model.get_weights()],
                      "next_draw": float(np.random.random())}))


if __name__ == "__main__":
    main()
