"""A TF 1.x Keras model whose BatchNormalization layers say `fused=`: False on a feature map (TF 1.15's
non-fused moments path: the moving variance averages the biased batch variance), True on a feature map
(the fused kernel: the Bessel-corrected one), None on a Dense output (rank 2: never fused). Trains with
momentum 0.5 on batches of 4, then evaluates and predicts on the moving statistics; prints the numbers
as JSON."""
import json

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
x = rs.uniform(-1, 1, size=(8, 3, 3, 2)).astype(np.float32)
y = rs.uniform(-1, 1, size=(8, 1)).astype(np.float32)
inputs = tf.keras.layers.Input(shape=(3, 3, 2))
h = tf.keras.layers.Conv2D(3, 2)(inputs)
h = tf.keras.layers.BatchNormalization(momentum=0.5, fused=False)(h)
h = tf.keras.layers.Conv2D(2, 1)(h)
h = tf.keras.layers.BatchNormalization(momentum=0.5, fused=True)(h)
h = tf.keras.layers.Dense(3)(tf.keras.layers.Flatten()(h))
h = tf.keras.layers.BatchNormalization(momentum=0.5, fused=None)(h)
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(h))
weights = np.random.RandomState(1)
model.set_weights([weights.uniform(-0.5, 0.5, w.shape).astype(np.float32) if w.ndim > 1 or i % 2 == 0 else w
                   for i, w in enumerate(model.get_weights())])
model.compile(tf.keras.optimizers.SGD(0.1), "mse")
history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
moving = [layer.get_weights()[3].tolist() for layer in model.layers
          if isinstance(layer, tf.keras.layers.BatchNormalization)]
print(json.dumps({"tensorflow": tf.__version__, "loss": history.history["loss"],
                  "moving_variance": moving, "evaluate": model.evaluate(x, y, batch_size=4, verbose=0),
                  "predictions": model.predict(x, batch_size=4).ravel().tolist()}))
