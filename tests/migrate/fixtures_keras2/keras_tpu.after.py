"""Keras on TPU the 2018 way (keras_to_tpu_model) and Keras 2 argument spellings."""

import os

import tensorflow as tf
import estimator_bridge.compat.keras_methods
import estimator_bridge.compat.keras_tf1_inputs
import estimator_bridge.compat.keras_tf1_losses
import estimator_bridge.compat.keras_tpu
import tf_keras


def build_model():
  model = tf_keras.models.Sequential([
      tf_keras.layers.Dense(64, activation="relu", input_shape=(8,)),
      tf_keras.layers.Dense(3, activation="softmax"),
  ])
  model.compile(optimizer=tf_keras.optimizers.legacy.Adam(learning_rate=1e-3),
                loss=estimator_bridge.compat.keras_tf1_losses.sparse_categorical_crossentropy, metrics=["acc"])
  return model


def to_tpu(model):
  resolver = estimator_bridge.TPUClusterResolver(
      tpu="grpc://" + os.environ["COLAB_TPU_ADDR"])
  tf.config.experimental_connect_to_cluster(resolver)
  tf.tpu.experimental.initialize_tpu_system(resolver)
  strategy = tf.distribute.TPUStrategy(resolver)
  with strategy.scope():
    tpu_model = tf_keras.models.clone_model(model)
    tpu_model.set_weights(model.get_weights())
    estimator_bridge.compat.keras_tpu.compile_like(tpu_model, model)
  return tpu_model


def sgd():
  return tf_keras.optimizers.SGD(lr=0.01, momentum=0.9, decay=1e-6)


def experimental_strategy(resolver):
  return tf.distribute.TPUStrategy(resolver)


def replica_step(strategy, step, x):
  return strategy.run(step, args=(x,))


def from_named_strategy(model, resolver):
  tf.config.experimental_connect_to_cluster(resolver)
  tf.tpu.experimental.initialize_tpu_system(resolver)
  strategy = tf.distribute.TPUStrategy(resolver)
  with strategy.scope():
    tpu_model = tf_keras.models.clone_model(model)
    tpu_model.set_weights(model.get_weights())
    estimator_bridge.compat.keras_tpu.compile_like(tpu_model, model)
  return tpu_model


def not_handled(models, resolver):
  return tf.contrib.tpu.keras_to_tpu_model(models[0], strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))


def same_name(model, resolver):
  model.load_weights("pretrained.h5")
  tf.config.experimental_connect_to_cluster(resolver)
  tf.tpu.experimental.initialize_tpu_system(resolver)
  strategy = tf.distribute.TPUStrategy(resolver)
  cpu_model = model
  with strategy.scope():
    model = tf_keras.models.clone_model(cpu_model)
    model.set_weights(cpu_model.get_weights())
    estimator_bridge.compat.keras_tpu.compile_like(model, cpu_model)
  return model


def compiled_after_conversion(model, train_images, train_labels):
  strategy_resolver = estimator_bridge.TPUClusterResolver(tpu="grpc://" + os.environ["COLAB_TPU_ADDR"])
  tf.config.experimental_connect_to_cluster(strategy_resolver)
  tf.tpu.experimental.initialize_tpu_system(strategy_resolver)
  strategy = tf.distribute.TPUStrategy(strategy_resolver)
  with strategy.scope():
    tpu_model = tf_keras.models.clone_model(model)
    tpu_model.set_weights(model.get_weights())
    estimator_bridge.compat.keras_tpu.compile_like(tpu_model, model)
  with strategy.scope():
    tpu_model.compile(loss=estimator_bridge.compat.keras_tf1_losses.categorical_crossentropy, optimizer=tf_keras.optimizers.legacy.Adam(learning_rate=0.001), metrics=["acc"])
  tpu_model.summary()
  with strategy.scope():
    tpu_model.compile(optimizer=tf.compat.v1.train.AdamOptimizer(learning_rate=1e-3), loss=estimator_bridge.compat.keras_tf1_losses.categorical_crossentropy)
  return estimator_bridge.compat.keras_methods.fit_tf1(tpu_model, train_images, train_labels, batch_size=128, epochs=20, validation_split=0.1)


def evaluated_on_a_dataset_function(model, resolver, get_validation_dataset, x_test, y_test):
  tf.config.experimental_connect_to_cluster(resolver)
  tf.tpu.experimental.initialize_tpu_system(resolver)
  strategy = tf.distribute.TPUStrategy(resolver)
  with strategy.scope():
    tpu_model = tf_keras.models.clone_model(model)
    tpu_model.set_weights(model.get_weights())
    estimator_bridge.compat.keras_tpu.compile_like(tpu_model, model)
  loss = tpu_model.evaluate(estimator_bridge.compat.keras_tpu.tpu_model_input(get_validation_dataset, tpu_model), steps=2)
  tpu_model.evaluate(x=estimator_bridge.compat.keras_tpu.tpu_model_input(get_validation_dataset, tpu_model), steps=2)
  estimator_bridge.compat.keras_tf1_inputs.evaluate_tf1(tpu_model, x_test, y_test)
  return loss, estimator_bridge.compat.keras_tf1_inputs.predict_tf1(tpu_model, x_test)
