"""A TF 1.x Keras program compiled with the string 'adam' (training-data-analyst's 2018 MNIST notebook).

Run as written on TF 1.15 (the oracle) and after estimator-migrate on current TensorFlow (either
Keras target), it trains a small dense model 6 steps from fixed weights and prints, as one JSON
line, the per-step losses and each step's kernel update divided by the learning rate: Adam's
update is about that size whatever the gradient, so a step that is a few millionths shorter
(Keras 3's decay rates against the TF 1.x kernel's) is seen to the float32 resolution of ~1e-7.
The `keras_to_tpu_model` branch is the notebook's and does not run on CPU.
"""

import json

import numpy as np
import tensorflow as tf

USE_TPU = False
STEPS = 6

data = np.random.RandomState(0)
x = data.uniform(-1, 1, (16, 4)).astype(np.float32)
y = data.uniform(-1, 1, (16, 3)).astype(np.float32)
model = tf.keras.models.Sequential([tf.keras.layers.Dense(3, input_shape=(4,), kernel_initializer="zeros",
                                                          bias_initializer="zeros")])
if USE_TPU:
  model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=None)
model.compile(optimizer='adam', loss="mse")
losses, steps = [], []
for _ in range(STEPS):
  before = model.get_weights()[0]
  losses.append(float(model.train_on_batch(x, y)))
  steps.append(((model.get_weights()[0].astype(np.float64) - before) / 0.001).ravel().tolist())
print(json.dumps({"tensorflow": tf.__version__, "losses": losses, "steps": steps}))
