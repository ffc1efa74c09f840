"""Keras BatchNormalization's outputs and gradients in training (oracle program).

A conv net whose batch norms feed ReLUs (NHWC, axis -1, and the `scale=False` form of
squeezenet-style fire modules). TF 2.x's Keras ran them with the fused kernel, Keras 3 with its own
arithmetic, which rounds differently; a value near zero before a ReLU can then fall on the other
side and change a gradient by far more than rounding. `--bridge-class` builds the layers from
estimator_bridge.compat.keras_batch_norm.BatchNormalization (what migrated code gets). Prints one
JSON line: the first batch's loss, every trainable weight's gradient, and the losses of three SGD
(Nesterov) steps.
"""

import json
import sys

import numpy as np
import tensorflow as tf

if "--bridge-class" in sys.argv:
    from estimator_bridge.compat.keras_batch_norm import BatchNormalization
else:
    BatchNormalization = tf.keras.layers.BatchNormalization

rng = np.random.RandomState(0)
x = rng.rand(8, 6, 6, 3).astype(np.float32)
y = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 8)]

inputs = tf.keras.layers.Input(shape=[6, 6, 3])
h = tf.keras.layers.Conv2D(8, 3, padding='same', activation='relu')(inputs)
h = BatchNormalization(momentum=0.9)(h)
h = tf.keras.layers.Conv2D(6, 1, padding='same', use_bias=False)(h)
h = BatchNormalization(momentum=0.9, scale=False, center=True)(h)
h = tf.keras.layers.Activation('relu')(h)
h = tf.keras.layers.MaxPooling2D(2)(h)
h = tf.keras.layers.GlobalAveragePooling2D()(h)
outputs = tf.keras.layers.Dense(3, activation='softmax')(h)
model = tf.keras.Model(inputs, outputs)
model.set_weights([np.random.RandomState(i).uniform(-0.5, 0.5, w.shape).astype(np.float32)
                   + (1.0 if 'variance' in v.name else 0.0) for i, (w, v) in enumerate(zip(model.get_weights(), model.weights))])
model.compile(optimizer=tf.keras.optimizers.SGD(0.01, momentum=0.9, nesterov=True), loss='categorical_crossentropy')
with tf.GradientTape() as tape:
    loss = tf.keras.losses.CategoricalCrossentropy()(y, model(x, training=True))
gradients = tape.gradient(loss, model.trainable_weights)
losses = [float(np.ravel(model.train_on_batch(x[i:i + 4], y[i:i + 4]))[0]) for i in (0, 4, 0)]
print(json.dumps({"tensorflow": tf.__version__, "loss": float(loss), "losses": losses,
                  "gradients": [[float(n) for n in np.ravel(g)] for g in gradients]}))
