"""A 2018-2019 Keras program trained on ImageDataGenerator batches (TF 1.15's tf.keras): fit_generator on
`datagen.flow(x, y, batch_size)` with a float steps_per_epoch (len(x) / batch_size), validation on another
flow, then evaluate_generator (on whole batches: TF 1.15 averaged its loss over steps, not samples) and
predict_generator on flows. No random transform and no shuffling, so TF 1.15 and the migrated copy see the
same batches. Prints the numbers as JSON."""
import json

import numpy as np
import tensorflow as tf
from tensorflow.keras.layers import Conv2D, Dense, Flatten
from tensorflow.keras.models import Sequential
from tensorflow.keras.preprocessing.image import ImageDataGenerator

rs = np.random.RandomState(0)
x = rs.randint(0, 256, size=(20, 6, 6, 3)).astype(np.uint8)
y = tf.keras.utils.to_categorical(rs.randint(0, 3, size=20), 3)
model = Sequential([Conv2D(4, 3, activation="relu", input_shape=(6, 6, 3)), Flatten(), Dense(3, activation="softmax")])
weights = np.random.RandomState(1)
model.set_weights([weights.uniform(-0.3, 0.3, w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(tf.keras.optimizers.SGD(0.1), "categorical_crossentropy")

datagen = ImageDataGenerator(rescale=1.0 / 255)
batch_size = 8
history = model.fit_generator(datagen.flow(x, y, batch_size=batch_size, shuffle=False),
                              steps_per_epoch=len(x) / batch_size, epochs=2, shuffle=False, verbose=0,
                              validation_data=datagen.flow(x[:8], y[:8], batch_size=4, shuffle=False),
                              validation_steps=2)
flow = datagen.flow(x[:16], y[:16], batch_size=batch_size, shuffle=False)
loss = model.evaluate_generator(flow, steps=len(flow))
predictions = model.predict_generator(datagen.flow(x, y, batch_size=batch_size, shuffle=False), steps=3)
print(json.dumps({"tensorflow": tf.__version__,
                  "loss": [float(v) for v in history.history["loss"]],
                  "val_loss": [float(v) for v in history.history["val_loss"]],
                  "evaluate": float(loss), "batches": len(flow),
                  "predictions": np.asarray(predictions).tolist()}))
