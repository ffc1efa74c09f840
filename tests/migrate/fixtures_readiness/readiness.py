"""A Kaggle-style Keras TPU notebook cell and a TPUEstimator model_fn with what a TPU does badly."""

import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)
BATCH_SIZE = 16 * strategy.num_replicas_in_sync


def parse(record):
  features = tf.io.parse_single_example(record, {"x": tf.io.FixedLenFeature([4], tf.float32)})
  label = tf.numpy_function(lambda x: x[:1].astype("int64"), [features["x"]], tf.int64)
  return features["x"], label


def training_dataset(files):
  dataset = tf.data.TFRecordDataset(files).map(parse)
  return dataset.repeat().batch(BATCH_SIZE)


def eval_dataset(files):
  return tf.data.TFRecordDataset(files).map(parse).padded_batch(96, padded_shapes=([None], [1]))


with strategy.scope():
  model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
  model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(training_dataset(["train.tfrec"]), steps_per_epoch=10, epochs=2)
model.save("model.keras")
tf.saved_model.save(model, "/kaggle/working/saved")


def model_fn(features, labels, mode, params):
  logits = tf.compat.v1.layers.dense(features, 3)
  loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
  tf.compat.v1.summary.scalar("loss", loss)
  return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(mode, loss=loss)


def make_estimator(config):
  return tf.compat.v1.estimator.tpu.TPUEstimator(model_fn=model_fn, config=config, train_batch_size=100)
