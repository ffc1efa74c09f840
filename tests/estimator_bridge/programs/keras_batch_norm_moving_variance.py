"""Keras BatchNormalization's moving statistics after training (oracle program).

A conv net with batch norm on NHWC feature maps (4x4 and 2x2, axis -1) and on a Dense layer's
output (2-D), trained a few steps with small per-channel counts (batch 4), then evaluated
(inference reads the moving statistics). TF 1.15's and TF 2.15's Keras averaged the Bessel-corrected batch variance into the moving variance on 4-D inputs (the fused
kernel), the biased one on 2-D inputs. `--bridge-class` builds the layers from
estimator_bridge.compat.keras_batch_norm.BatchNormalization (what migrated code gets). Prints one
JSON line: moving means/variances, training losses, evaluation.
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
x = rng.rand(16, 4, 4, 3).astype(np.float32)
y = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 16)]

inputs = tf.keras.layers.Input(shape=[4, 4, 3])
h = tf.keras.layers.Conv2D(4, 3, padding='same', use_bias=False)(inputs)
h = BatchNormalization(momentum=0.9)(h)
h = tf.keras.layers.Activation('relu')(h)
h = tf.keras.layers.MaxPooling2D(2)(h)
h = BatchNormalization(scale=False)(h)
h = tf.keras.layers.Flatten()(h)
h = tf.keras.layers.Dense(5)(h)
h = BatchNormalization(momentum=0.8)(h)
outputs = tf.keras.layers.Dense(3, activation='softmax')(h)
model = tf.keras.Model(inputs, outputs)
model.set_weights([np.random.RandomState(i).uniform(-0.5, 0.5, w.shape).astype(np.float32)
                   + (1.0 if 'variance' in v.name else 0.0) for i, (w, v) in enumerate(zip(model.get_weights(), model.weights))])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss='categorical_crossentropy')
history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
moving = [[float(n) for n in np.ravel(w)] for v, w in zip(model.weights, model.get_weights()) if 'moving' in v.name]
print(json.dumps({"tensorflow": tf.__version__, "loss": [float(v) for v in history.history['loss']],
                  "moving": moving,
                  "evaluate": float(model.evaluate(x, y, batch_size=8, verbose=0))}))
