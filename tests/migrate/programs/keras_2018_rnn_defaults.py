"""TF 1.x Keras recurrent layers on their defaults (GoogleCloudPlatform/cloudml-samples
tpu/templates/tpu_keras/trainer.py, 2018: `tf.keras.layers.LSTM(10)` on (5, 3) sequences, a sigmoid
Dense head, tf.losses.log_loss): TF 1.15's LSTM and GRU gate with hard_sigmoid and its GRU has no
reset_after.

Run as `python keras_2018_rnn_defaults.py`; prints one JSON line: losses, predictions, final weights.
"""

import json

import numpy as np
import tensorflow as tf


def build_model():
    inputs = tf.keras.Input(shape=(5, 3))
    encoded = tf.keras.layers.LSTM(6, return_sequences=True)(inputs)
    encoded = tf.keras.layers.GRU(4)(encoded)
    outputs = tf.keras.layers.Dense(1, activation=tf.nn.sigmoid)(encoded)
    return tf.keras.Model(inputs=inputs, outputs=outputs)


def main():
    model = build_model()
    rng = np.random.RandomState(0)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    model.compile(tf.train.GradientDescentOptimizer(learning_rate=0.5), tf.losses.log_loss)
    sequences = rng.uniform(-2, 2, (16, 5, 3)).astype(np.float32)
    labels = rng.randint(0, 2, size=(16, 1)).astype(np.float32)
    history = model.fit(sequences, labels, batch_size=8, epochs=2, shuffle=False, verbose=0)
    print(json.dumps({"tensorflow": tf.__version__, "loss": history.history["loss"],
                      "predictions": model.predict(sequences[:4]).ravel().tolist(),
                      "weights": [w.ravel().tolist() for w in model.get_weights()]}))


if __name__ == "__main__":
    main()
