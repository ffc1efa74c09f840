"""Keras layers held by a tf.keras.Model subclass in a TPUEstimator model_fn (tensorflow/tpu
EfficientNet/MnasNet style, 2019-2020): blocks are Keras Layer subclasses whose `call` the model
invokes directly inside `tf.variable_scope('blocks_%d')`; a Keras DepthwiseConv2D mixed with
tf.layers.Layer (named by variable scope in TF 1.15, weight `depthwise_kernel`); tf.layers.Dense
objects made before a Keras Dense (which TF 1.15 then named `dense_2`); Keras Dropout (Keras 3
gives it a random-number state TF 1.15 never had); the model called inside
`tf.variable_scope(model_name)`.

  python keras_model_subclass.py --model_dir=DIR --train_steps=N [--dropout=RATE]

prints one JSON line: eval loss, global step, and every checkpoint variable's name, shape and
values summary.
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_string("model_dir", None, "Model directory.")
flags.DEFINE_integer("train_steps", 4, "Global step to train to.")
flags.DEFINE_float("dropout", 0.0, "Dropout rate of the head (random: only names are compared).")
FLAGS = flags.FLAGS


class DepthwiseConv2D(tf.keras.layers.DepthwiseConv2D, tf.layers.Layer):
  pass


class Block(tf.keras.layers.Layer):

  def __init__(self, filters):
    super(Block, self).__init__()
    self._dw = DepthwiseConv2D([3, 3], padding="same", use_bias=False)
    self._conv = tf.keras.layers.Conv2D(filters, 1, use_bias=False)
    self._dense_gate = tf.layers.Dense(filters)

  def call(self, inputs, training=True):
    net = tf.nn.relu(self._dw(inputs))
    with tf.variable_scope("se"):
      gate = tf.sigmoid(self._dense_gate(tf.reduce_mean(net, [1, 2])))
    return self._conv(net) * gate[:, None, None, :]


class Net(tf.keras.Model):

  def __init__(self):
    super(Net, self).__init__()
    self._stem = tf.keras.layers.Conv2D(4, 3, padding="same")
    self._blocks = [Block(4), Block(4)]
    self._pool = tf.keras.layers.GlobalAveragePooling2D()
    self._dropout = tf.keras.layers.Dropout(FLAGS.dropout)
    self._fc = tf.keras.layers.Dense(3)

  def call(self, inputs, training=True):
    with tf.variable_scope("stem"):
      net = self._stem(inputs)
    for index, block in enumerate(self._blocks):
      with tf.variable_scope("blocks_%d" % index):
        net = block.call(net, training=training)
    with tf.variable_scope("head"):
      net = self._dropout(self._pool(net), training=training)
      return self._fc(net)


def input_fn(params):
  data = np.random.RandomState(0)
  images = data.rand(64, 6, 6, 2).astype(np.float32)
  labels = (images.mean(axis=(1, 2, 3)) * 30).astype(np.int32) % 3
  dataset = tf.data.Dataset.from_tensor_slices((images, labels)).repeat()
  return dataset.batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
  with tf.variable_scope("netname"):
    logits = Net()(features, training=mode == tf.estimator.ModeKeys.TRAIN)
  loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
  if mode == tf.estimator.ModeKeys.EVAL:
    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss)
  train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, tf.train.get_global_step())
  return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)


def main(argv):
  del argv
  config = tf.contrib.tpu.RunConfig(
      model_dir=FLAGS.model_dir, tf_random_seed=1, save_checkpoints_steps=1000,
      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
  estimator = tf.contrib.tpu.TPUEstimator(
      model_fn=model_fn, config=config, use_tpu=False, train_batch_size=8, eval_batch_size=8)
  estimator.train(input_fn, max_steps=FLAGS.train_steps)
  evaluation = estimator.evaluate(input_fn, steps=2)
  reader = tf.train.load_checkpoint(estimator.latest_checkpoint())
  variables = {}
  for name, shape in sorted(reader.get_variable_to_shape_map().items()):
    value = np.asarray(reader.get_tensor(name), dtype=np.float64)
    variables[name] = {"shape": list(shape), "first": value.ravel()[:4].tolist(),
                       "norm": float(np.sqrt(np.sum(value ** 2)))}
  print(json.dumps({"eval_loss": float(evaluation["loss"]), "global_step": int(evaluation["global_step"]),
                    "variables": variables}))


if __name__ == "__main__":
  tf.app.run()
