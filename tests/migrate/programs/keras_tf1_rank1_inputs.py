"""A TF 1.x Keras program that feeds 1-D arrays to models whose input has rank 2, as tensorflow/tpu
models/experimental/keras_colab/shakespeare_lstm.py's sampling loop did: a stateful (batch 5, 1) model
primed with `seed[:, -1:]` (5, 1), then `predict(np.asarray(next_idx))` (5,). TF 1.x's Keras fed such
an array (and a list of numbers) as an (n, 1) column in every model method, so the other methods do
the same after a 2-D call. Fixed weights; prints every output as JSON."""
import json

import numpy as np
import tensorflow as tf


def fixed(model, seed):
    rng = np.random.RandomState(seed)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])


source = tf.keras.Input(name='seed', shape=(1,), batch_size=5, dtype=tf.int32)
lstm = tf.keras.layers.LSTM(8, stateful=True, return_sequences=True)(tf.keras.layers.Embedding(32, 4)(source))
sampler = tf.keras.Model(source, tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(32, activation='softmax'))(lstm))
fixed(sampler, 0)
seed = np.array([[3, 7, 1], [0, 2, 5], [9, 9, 4], [1, 8, 6], [5, 3, 2]], np.int32)
sampled = []
for i in range(seed.shape[1] - 1):
    sampler.predict(seed[:, i:i + 1])
last = seed[:, -1:]
for _ in range(3):
    probits = sampler.predict(last)[:, 0, :]
    sampled.append(probits.tolist())
    last = np.asarray([int(np.argmax(p)) for p in probits], dtype=np.int32)   # shape (5,)

inputs = tf.keras.Input(shape=(1,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
fixed(model, 1)
model.compile(tf.keras.optimizers.SGD(0.1), 'mse')
column = np.linspace(-1.0, 1.0, 6).astype(np.float32)[:, None]
flat = column[:, 0]
targets = np.stack([flat * 2.0, 1.0 - flat], axis=1).astype(np.float32)
outputs = {"sampled": sampled}
for method, call in (("predict_on_batch", lambda x: model.predict_on_batch(x)),
                     ("test_on_batch", lambda x: model.test_on_batch(x, targets)),
                     ("evaluate", lambda x: model.evaluate(x, targets, verbose=0)),
                     ("train_on_batch", lambda x: model.train_on_batch(x, targets)),
                     ("predict", lambda x: model.predict(x))):
    outputs[method] = [np.asarray(call(x)).tolist() for x in (column, flat, flat.tolist())]
outputs["weights"] = [w.tolist() for w in model.get_weights()]
print(json.dumps(outputs))
