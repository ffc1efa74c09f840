"""TPU code that follows the TPU rules: nothing to report, nothing to rewrite."""

import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)
BATCH_SIZE = 128 * strategy.num_replicas_in_sync


def training_dataset(files):
  dataset = tf.data.TFRecordDataset(files).map(lambda r: tf.io.parse_single_example(
      r, {"x": tf.io.FixedLenFeature([4], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64)}))
  return dataset.repeat().batch(BATCH_SIZE, drop_remainder=True)


with strategy.scope():
  model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
  model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", steps_per_execution=32)
model.fit(training_dataset(["gs://bucket/train.tfrec"]), steps_per_epoch=10, epochs=2)
model.save("gs://bucket/model.keras")
tf.saved_model.save(model, "/tmp/saved", options=tf.saved_model.SaveOptions(experimental_io_device="/job:localhost"))
