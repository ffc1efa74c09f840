"""A TF 1.x Keras program that reads its history by TF 1.x's metric names (oracle program).

Shaped like GoogleCloudPlatform/training-data-analyst courses/fast-and-lean-data-science/
07_Keras_Flowers_TPU_squeezenet.ipynb of 2019 (a12263e96): compile(metrics=['accuracy']), fit on
a repeated tf.data dataset with steps_per_epoch and validation_data/validation_steps, then
`history.history['acc']` and `['val_acc']` for the plots, evaluate and predict; 'mae' added (TF 1.x
named it 'mean_absolute_error'). Weights are set from a seeded generator so that every TensorFlow
starts from the same numbers. Prints one JSON line: the history's keys and values, evaluate.
"""

import json

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
images = rng.rand(64, 6, 6, 3).astype(np.float32)
labels = np.eye(5, dtype=np.float32)[rng.randint(0, 5, 64)]


def dataset(x, y, repeat):
    data = tf.data.Dataset.from_tensor_slices((x, y))
    data = data.repeat() if repeat else data
    return data.batch(8, drop_remainder=True)


x = tf.keras.layers.Input(shape=[6, 6, 3])
y = tf.keras.layers.Conv2D(kernel_size=3, filters=4, padding='same', activation='relu')(x)
y = tf.keras.layers.BatchNormalization(momentum=0.9)(y)
y = tf.keras.layers.GlobalAveragePooling2D()(y)
y = tf.keras.layers.Dense(5, activation='softmax')(y)
model = tf.keras.Model(x, y)
model.set_weights([np.random.RandomState(i).uniform(-0.5, 0.5, w.shape).astype(np.float32) + (1.0 if 'variance' in v.name else 0.0)
                   for i, (w, v) in enumerate(zip(model.get_weights(), model.weights))])

model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy', 'mae'])

history = model.fit(dataset(images[:48], labels[:48], True), steps_per_epoch=4, epochs=2,
                    validation_data=dataset(images[48:], labels[48:], True), validation_steps=2, verbose=0)
curves = {"accuracy": history.history['acc'], "val_accuracy": history.history['val_acc'],
          "mae": history.history['mean_absolute_error'], "loss": history.history['loss']}
curves = {k: [float(v) for v in vs] for k, vs in curves.items()}
evaluations = model.evaluate(images[48:], labels[48:], batch_size=8, verbose=0)
print(json.dumps({"tensorflow": tf.__version__, "keys": sorted(history.history),
                  "curves": curves,
                  "history": {k: [float(v) for v in vs] for k, vs in history.history.items()},
                  "evaluate": [float(v) for v in evaluations]}))
