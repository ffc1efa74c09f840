"""A TF 1.x Keras program that fits numpy arrays with `steps_per_epoch` and no batch size, as
tensorflow/tpu tools/colab/classification_iris_data_with_keras.ipynb (TF 1.14) did on its CPU path:
`model.fit(train_x.values, train_y.values, steps_per_epoch=steps_per_epoch, epochs=epochs)`.
Fixed initial weights, iris-like arrays; prints the epoch losses as JSON."""
import json

import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.RandomState(0)
y = rng.randint(0, 3, 120).astype(np.int32)
x = (np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])[y]
     + rng.normal(0, 0.3, (120, 4))).astype(np.float32)
model = keras.Sequential([keras.layers.Dense(10, activation=tf.nn.relu, input_shape=(4,)),
                          keras.layers.Dense(3, activation=tf.nn.softmax)])
rng = np.random.RandomState(1)
model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.Adagrad(learning_rate=0.1), loss="sparse_categorical_crossentropy")
history = model.fit(x, y, steps_per_epoch=5, epochs=3, verbose=0, shuffle=False)
print(json.dumps({"tensorflow": tf.__version__, "losses": [float(v) for v in history.history["loss"]]}))
