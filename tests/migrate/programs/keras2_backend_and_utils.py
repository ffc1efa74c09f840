"""Keras 2 backend functions, utilities and cells a 2019 Keras program used (TF 1.15's tf.keras; the
standalone `keras` 2.2 package had the same functions): a custom loss of K.sqrt/K.mean/K.square trained
with fit, K.argmax/K.concatenate/K.expand_dims/K.int_shape values, the Tokenizer and
an RNN cell's get_initial_state(batch_size=, dtype=). Prints the numbers as JSON."""
import json

import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras.preprocessing.text import Tokenizer

lines = []


def rmse(y_true, y_pred):
  return K.sqrt(K.mean(K.square(y_pred - y_true), axis=-1))


rng = np.random.RandomState(0)
x = rng.normal(size=(64, 5)).astype(np.float32)
y = (x @ rng.normal(size=(5, 2))).astype(np.float32)
model = tf.keras.models.Sequential([tf.keras.layers.Dense(6, activation="tanh", input_shape=(5,)),
                                    tf.keras.layers.Dense(2)])
weights = np.random.RandomState(1)
model.set_weights([weights.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=rmse)
history = model.fit(x, y, batch_size=16, epochs=3, verbose=0, shuffle=False)
model.summary(print_fn=lines.append)

values = tf.constant([[-1.0, 4.0, 2.0], [3.0, -2.0, 9.0]])
cell = tf.keras.layers.LSTMCell(3)
state = cell.get_initial_state(batch_size=4, dtype=tf.float32)
tensors = [K.sqrt(values), K.argmax(K.concatenate([values, -values])), K.expand_dims(values), state[0], state[1]]
if not tf.executing_eagerly():
  tensors = tf.compat.v1.keras.backend.get_session().run(tensors)
tokenizer = Tokenizer(num_words=20)
tokenizer.fit_on_texts(["the cat sat on the mat", "the dog ate the cat"])
print(json.dumps({"tensorflow": tf.__version__,
                  "loss": [float(v) for v in history.history["loss"]],
                  "values": [np.asarray(t).tolist() for t in tensors],
                  "int_shape": list(K.int_shape(values)),
                  "summary": "Total params" in "\n".join(lines),
                  "sequences": tokenizer.texts_to_sequences(["the cat ate the mat"])}))
