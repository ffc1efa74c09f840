"""A TF 1.x Keras program that fits numpy arrays with `steps_per_epoch` *and* a batch size, and
validation arrays, as tensorflow/tpu tools/colab/autoencoder_embeddings.ipynb (2019-07, TF 1.14) did:
`autoencoder.fit(x_train, x_train, batch_size=128, epochs=3, steps_per_epoch=468,
validation_data=(x_test, x_test))`. TF 1.x's Keras fed the full arrays at each step and batched (and
shuffled, with numpy's generator) only the validation arrays. Fixed initial weights, seeded numpy;
prints the epoch losses, validation numbers and the next numpy draw as JSON."""
import json

import numpy as np
import tensorflow as tf
from tensorflow import keras

np.random.seed(0)
rng = np.random.RandomState(0)
y = rng.randint(0, 3, 150).astype(np.int32)
x = (np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])[y]
     + rng.normal(0, 0.3, (150, 4))).astype(np.float32)
model = keras.Sequential([keras.layers.Dense(10, activation=tf.nn.relu, input_shape=(4,)),
                          keras.layers.Dense(3, activation=tf.nn.softmax)])
rng = np.random.RandomState(1)
model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.Adagrad(learning_rate=0.1), loss="sparse_categorical_crossentropy",
              metrics=["acc"])
history = model.fit(x[:120], y[:120], batch_size=16, epochs=3, steps_per_epoch=5, verbose=0,
                    validation_data=(x[120:], y[120:]))
print(json.dumps({"tensorflow": tf.__version__, "losses": [float(v) for v in history.history["loss"]],
                  "val_losses": [float(v) for v in history.history["val_loss"]],
                  "val_acc": [float(v) for v in history.history["val_acc"]],
                  "next_draw": float(np.random.rand())}))
