"""User-defined `tf.layers.Layer` subclasses (TensorFlow official Transformer's style, 2018-2019).

An Attention layer creates named `tf.layers.Dense` sub-layers in `__init__` and calls them in
`call`; a LayerNormalization creates its weights with `add_variable` in `build`, with an L2
regularizer; a layer with a non-trainable counter registers an update with `add_update`. Both
Attention objects are called twice (the second call reuses the weights), inside variable
scopes. Trained 3 Adam steps on the TPUEstimator CPU path, then evaluated; prints one JSON line
(variable names and values, what the layers report about themselves, losses).
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).rand(16, 5, 6).astype(np.float32)
LABELS = (FEATURES[:, :, 0].mean(axis=1) > 0.5).astype(np.int32)
REPORTED = {}


class LayerNormalization(tf.layers.Layer):
  """The official Transformer's layer norm: weights made in build() with add_variable."""

  def __init__(self, hidden_size):
    super(LayerNormalization, self).__init__()
    self.hidden_size = hidden_size

  def build(self, input_shape):
    self.scale = self.add_variable("layer_norm_scale", [self.hidden_size],
                                   initializer=tf.ones_initializer(),
                                   regularizer=tf.contrib.layers.l2_regularizer(0.01))
    self.bias = self.add_variable("layer_norm_bias", [self.hidden_size],
                                  initializer=tf.zeros_initializer())
    self.built = True

  def call(self, x, epsilon=1e-6):
    mean = tf.reduce_mean(x, axis=[-1], keepdims=True)
    variance = tf.reduce_mean(tf.square(x - mean), axis=[-1], keepdims=True)
    norm_x = (x - mean) * tf.rsqrt(variance + epsilon)
    return norm_x * self.scale + self.bias


class Attention(tf.layers.Layer):
  """Named Dense sub-layers made in __init__, called in call()."""

  def __init__(self, hidden_size, train):
    super(Attention, self).__init__()
    self.train = train
    init = tf.glorot_uniform_initializer(seed=7)
    self.q_dense_layer = tf.layers.Dense(hidden_size, use_bias=False, name="q", kernel_initializer=init)
    self.k_dense_layer = tf.layers.Dense(hidden_size, use_bias=False, name="k", kernel_initializer=init)
    self.output_dense_layer = tf.layers.Dense(hidden_size, use_bias=False, name="output_transform",
                                              kernel_initializer=init)

  def call(self, x, y):
    q, k = self.q_dense_layer(x), self.k_dense_layer(y)
    weights = tf.nn.softmax(tf.matmul(q, k, transpose_b=True))
    return self.output_dense_layer(tf.matmul(weights, y))


class Counter(tf.layers.Layer):
  """A non-trainable weight updated through add_update (it lands in UPDATE_OPS)."""

  def build(self, input_shape):
    self.seen = self.add_weight("seen", [], initializer=tf.zeros_initializer(), trainable=False)

  def call(self, x):
    self.add_update(tf.assign_add(self.seen, tf.cast(tf.shape(x)[0], tf.float32)))
    return x


def input_fn(params):
  dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
  return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
  training = mode == tf.estimator.ModeKeys.TRAIN
  with tf.variable_scope("encoder"):
    attention = Attention(6, training)
    norm = LayerNormalization(6)
    net = norm(features + attention(features, features))
    net = norm(net + attention(net, net))
  with tf.variable_scope("decoder"):
    cross = Attention(6, training)
    net = cross(net, features)
  net = Counter(name="counter")(net)
  logits = tf.layers.dense(tf.reduce_mean(net, axis=1), 2,
                           kernel_initializer=tf.glorot_uniform_initializer(seed=3))
  loss = tf.losses.sparse_softmax_cross_entropy(labels, logits) + tf.losses.get_regularization_loss()
  REPORTED.update({
      "attention_name": attention.name, "attention_scope": attention.scope_name,
      "attention_trainable": sorted(v.op.name for v in attention.trainable_variables),
      "norm_variables": sorted(v.op.name for v in norm.variables),
      "update_ops": len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)),
      "regularization_losses": len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)),
  })
  with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss, tf.train.get_global_step())

  def metric_fn(labels, logits):
    return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

  return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                         eval_metrics=(metric_fn, [labels, logits]))


def main(argv):
  del argv
  config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                    tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=3))
  estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                          train_batch_size=8, eval_batch_size=8)
  estimator.train(input_fn, max_steps=3)
  reported_in_training = json.loads(json.dumps(REPORTED))
  metrics = estimator.evaluate(input_fn, steps=2)
  reader = tf.train.load_checkpoint(FLAGS.model_dir)
  print(json.dumps({
      "reported": reported_in_training,
      "eval_loss": float(metrics["loss"]),
      "variables": {name: np.asarray(reader.get_tensor(name)).astype(np.float64).tolist()
                    for name in sorted(reader.get_variable_to_shape_map())
                    if not name.endswith(("Adam", "Adam_1")) and name != "global_step"},
  }))


if __name__ == "__main__":
  tf.app.run()
