"""keras_to_tpu_model fed by dataset functions, TF 1.13-1.15 style (oracle program).

Shaped like GoogleCloudPlatform/training-data-analyst courses/fast-and-lean-data-science/
07_Keras_Flowers_TPU_squeezenet.ipynb of 2019 (a12263e96): TPU detection with a fallback, a batch
size that is per core on the TPU ("On TPU in Keras, this is the per-core batch size"), and
`tpu_model.fit(get_training_dataset, steps_per_epoch=..., validation_data=get_validation_dataset,
validation_steps=...)` with the *functions* (KerasTPUModel refused datasets) on the TPU branch,
`model.fit(get_training_dataset(), ...)` on the other. Then evaluate, and the CPU model gets the TPU
weights for prediction. On TF 1.15 without a TPU the CPU branch runs at the global batch
(PER_CORE x CORES), the batch a TPU of CORES cores trained on. No batch normalization: its
statistics are per core on a TPU. Prints one JSON line.
"""

import json
import sys

import numpy as np
import tensorflow as tf

CORES, PER_CORE = int(sys.argv[1]), int(sys.argv[2])

try:
  tpu = tf.contrib.cluster_resolver.TPUClusterResolver()
except ValueError:
  tpu = None

BATCH_SIZE = PER_CORE if tpu else PER_CORE * CORES

rng = np.random.RandomState(0)
images = rng.rand(96, 6, 6, 3).astype(np.float32)
labels = np.eye(5, dtype=np.float32)[rng.randint(0, 5, 96)]


def get_batched_dataset(x, y):
  dataset = tf.data.Dataset.from_tensor_slices((x, y))
  dataset = dataset.repeat()
  dataset = dataset.batch(BATCH_SIZE, drop_remainder=True)
  return dataset


def get_training_dataset():
  return get_batched_dataset(images[:64], labels[:64])


def get_validation_dataset():
  return get_batched_dataset(images[64:], labels[64:])


x = tf.keras.layers.Input(shape=[6, 6, 3])
y = tf.keras.layers.Conv2D(kernel_size=3, filters=4, padding='same', activation='relu')(x)
y = tf.keras.layers.Flatten()(y)
y = tf.keras.layers.Dense(5, activation='softmax')(y)
model = tf.keras.Model(x, y)
model.set_weights([np.random.RandomState(i).uniform(-0.3, 0.3, w.shape).astype(np.float32)
                   for i, w in enumerate(model.get_weights())])
model.compile(optimizer=tf.keras.optimizers.SGD(lr=0.5), loss='categorical_crossentropy', metrics=['accuracy'])

if tpu:
  strategy = tf.contrib.tpu.TPUDistributionStrategy(tpu)
  tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)

if tpu:
  history = tpu_model.fit(get_training_dataset, steps_per_epoch=2, epochs=3,
                          validation_data=get_validation_dataset, validation_steps=1, verbose=0)
  evaluations = tpu_model.evaluate(get_validation_dataset, steps=2, verbose=0)
else:
  history = model.fit(get_training_dataset(), steps_per_epoch=2, epochs=3,
                      validation_data=get_validation_dataset(), validation_steps=1, verbose=0)
  evaluations = model.evaluate(get_validation_dataset(), steps=2, verbose=0)

inference_model = model
if tpu:
  inference_model.set_weights(tpu_model.get_weights())
predictions = inference_model.predict(images[64:72], batch_size=8)
print(json.dumps({"tensorflow": tf.__version__, "tpu": bool(tpu),
                  "history": {k: [float(v) for v in vs] for k, vs in history.history.items()},
                  "evaluate": [float(v) for v in evaluations], "predictions": predictions.tolist(),
                  "weights": [w.tolist() for w in inference_model.get_weights()]}))
