"""A TF 1.x Keras program compiled with TF1 optimizers (as TF 1.11-1.15 Keras code was).

Run as written on TF 1.15 (the oracle) and after estimator-migrate on current TensorFlow, it
trains each case (one TF1 optimizer on a small dense model, or on a model that starts with an
Embedding, whose gradient is sparse) 8 steps from fixed weights and prints, as one JSON object,
every case's per-step losses and final weights, so that the test can hold the Keras optimizer the
codemod chose to the TF1 update.

  python keras_tf1_optimizers.py [CASE ...]     (default: every case)
"""

import json
import sys

import numpy as np
import tensorflow as tf

STEPS = 8
VOCABULARY = 40


def build_model(embedding):
  if embedding:
    # 16 rows of 2 ids from 40 per step: some ids twice in a batch, most not at all.
    layers = [tf.keras.layers.Embedding(VOCABULARY, 4, input_shape=(2,)), tf.keras.layers.Flatten(),
              tf.keras.layers.Dense(8, activation="tanh")]
  else:
    layers = [tf.keras.layers.Dense(8, activation="tanh", input_shape=(4,))]
  model = tf.keras.models.Sequential(layers + [tf.keras.layers.Dense(3)])
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
  elif name == "adagrad_initial":
    model.compile(optimizer=tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.5), loss="mse")
  elif name == "adadelta":
    model.compile(optimizer=tf.train.AdadeltaOptimizer(1.0), loss="mse")
  elif name == "rmsprop":
    model.compile(optimizer=tf.train.RMSPropOptimizer(0.01), loss="mse")
  elif name == "rmsprop_momentum":
    model.compile(optimizer=tf.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5, epsilon=1e-6), loss="mse")
  elif name == "rmsprop_centered":
    model.compile(optimizer=tf.train.RMSPropOptimizer(0.01, 0.9, 0.3, 1e-10, False, True), loss="mse")
  elif name == "ftrl":
    model.compile(optimizer=tf.train.FtrlOptimizer(0.1, l2_regularization_strength=0.01), loss="mse")
  else:
    raise SystemExit("unknown optimizer %r" % name)


OPTIMIZERS = ("adam", "adam_positional", "sgd", "momentum", "nesterov", "adagrad", "adagrad_initial", "adadelta",
              "rmsprop", "rmsprop_momentum", "rmsprop_centered", "ftrl")
CASES = OPTIMIZERS + tuple(name + "_embedding" for name in OPTIMIZERS if name != "adam_positional")


def run(case):
  embedding = case.endswith("_embedding")
  name = case[:-len("_embedding")] if embedding else case
  data = np.random.RandomState(0)
  if embedding:
    x = data.randint(0, VOCABULARY, size=(STEPS, 16, 2)).astype(np.int32)
  else:
    x = data.randn(STEPS, 16, 4).astype(np.float32)
  y = data.randn(STEPS, 16, 3).astype(np.float32)
  tf.keras.backend.clear_session()
  model = build_model(embedding)
  compile_with(model, name)
  losses = [float(model.train_on_batch(x[step], y[step])) for step in range(STEPS)]
  return {"losses": losses, "weights": [w.ravel().tolist() for w in model.get_weights()]}


def main():
  cases = sys.argv[1:] or CASES
  print(json.dumps({"tensorflow": tf.__version__, "cases": {case: run(case) for case in cases}}))


if __name__ == "__main__":
  main()
