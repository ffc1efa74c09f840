"""Keras on TPU the 2018 way (keras_to_tpu_model) and Keras 2 argument spellings."""

import os

import tensorflow as tf


def build_model():
  model = tf.keras.models.Sequential([
      tf.keras.layers.Dense(64, activation="relu", input_shape=(8,)),
      tf.keras.layers.Dense(3, activation="softmax"),
  ])
  model.compile(optimizer=tf.keras.optimizers.Adam(lr=1e-3),
                loss="sparse_categorical_crossentropy", metrics=["accuracy"])
  return model


def to_tpu(model):
  resolver = tf.contrib.cluster_resolver.TPUClusterResolver(
      tpu="grpc://" + os.environ["COLAB_TPU_ADDR"])
  strategy = tf.contrib.tpu.TPUDistributionStrategy(resolver)
  return tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)


def sgd():
  return tf.keras.optimizers.SGD(lr=0.01, momentum=0.9, decay=1e-6)


def experimental_strategy(resolver):
  return tf.distribute.experimental.TPUStrategy(resolver)


def replica_step(strategy, step, x):
  return strategy.experimental_run_v2(step, args=(x,))


def from_named_strategy(model, resolver):
  strategy = tf.contrib.tpu.TPUDistributionStrategy(resolver)
  return tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)


def not_handled(models, resolver):
  return tf.contrib.tpu.keras_to_tpu_model(models[0], strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))


def same_name(model, resolver):
  model.load_weights("pretrained.h5")
  model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
  return model


def compiled_after_conversion(model, train_images, train_labels):
  tpu_model = tf.contrib.tpu.keras_to_tpu_model(
      model,
      strategy=tf.contrib.tpu.TPUDistributionStrategy(
          tf.contrib.cluster_resolver.TPUClusterResolver(tpu="grpc://" + os.environ["COLAB_TPU_ADDR"])))
  tpu_model.compile(loss="categorical_crossentropy", optimizer=tf.keras.optimizers.Adam(lr=0.001), metrics=["acc"])
  tpu_model.summary()
  tpu_model.compile(optimizer=tf.train.AdamOptimizer(learning_rate=1e-3), loss="categorical_crossentropy")
  return tpu_model.fit(train_images, train_labels, batch_size=128, epochs=20, validation_split=0.1)


def evaluated_on_a_dataset_function(model, resolver, get_validation_dataset, x_test, y_test):
  tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
  loss = tpu_model.evaluate(get_validation_dataset, steps=2)
  tpu_model.evaluate(x=get_validation_dataset, steps=2)
  tpu_model.evaluate(x_test, y_test)
  return loss, tpu_model.predict(x_test)
