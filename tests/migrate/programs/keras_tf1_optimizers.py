"""A TF 1.x Keras program compiled with a TF1 optimizer (as TF 1.11-1.15 Keras code was).

Run as written on TF 1.15 (the oracle) and after estimator-migrate on current TensorFlow, it
prints the loss of every training step and the final weights as JSON, so that the test can hold
the Keras optimizer the codemod chose to the TF1 update.

  python keras_tf1_optimizers.py OPTIMIZER
"""

import json
import sys

import numpy as np
import tensorflow as tf

STEPS = 8


def build_model():
  model = tf.keras.models.Sequential([
      tf.keras.layers.Dense(8, activation="tanh", input_shape=(4,)),
      tf.keras.layers.Dense(3),
  ])
  weights = np.random.RandomState(1)
  model.set_weights([weights.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
  return model


def compile_with(model, name):
  if name == "adam":
    model.compile(optimizer=tf.train.AdamOptimizer(0.01), loss="mse")
  elif name == "adam_positional":
    model.compile(tf.train.AdamOptimizer(0.02, 0.8, 0.99), "mse")
  elif name == "sgd":
    model.compile(optimizer=tf.train.GradientDescentOptimizer(0.1), loss="mse")
  elif name == "momentum":
    model.compile(optimizer=tf.train.MomentumOptimizer(0.05, 0.9), loss="mse")
  elif name == "nesterov":
    model.compile(optimizer=tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True), loss="mse")
  elif name == "adagrad":
    optimizer = tf.train.AdagradOptimizer(0.1)
    model.compile(optimizer=optimizer, loss="mse")
  elif name == "adadelta":
    model.compile(optimizer=tf.train.AdadeltaOptimizer(1.0), loss="mse")
  elif name == "rmsprop":
    model.compile(optimizer=tf.train.RMSPropOptimizer(0.01), loss="mse")
  elif name == "ftrl":
    model.compile(optimizer=tf.train.FtrlOptimizer(0.1, l2_regularization_strength=0.01), loss="mse")
  else:
    raise SystemExit("unknown optimizer %r" % name)


def main():
  name = sys.argv[1]
  data = np.random.RandomState(0)
  x = data.randn(STEPS, 16, 4).astype(np.float32)
  y = data.randn(STEPS, 16, 3).astype(np.float32)
  model = build_model()
  compile_with(model, name)
  losses = [float(model.train_on_batch(x[step], y[step])) for step in range(STEPS)]
  weights = [w.ravel().tolist() for w in model.get_weights()]
  print(json.dumps({"tensorflow": tf.__version__, "losses": losses, "weights": weights}))


if __name__ == "__main__":
  main()
