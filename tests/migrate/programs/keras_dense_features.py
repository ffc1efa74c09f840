"""A TF 1.x Keras model on feature columns (TF 1.15's tf.keras.layers.DenseFeatures), as
training-data-analyst's Taxifare notebooks (2019) built it: a numeric, a bucketized, an indicator
column of a vocabulary list and embeddings of a crossed and an identity column, before Dense layers,
trained on a tf.data dataset of feature dicts, in eager mode as the notebook ran (TF 1.15's graph-mode
Keras never initialised the vocabulary's lookup table: "Table not initialized"). Seeded start weights (set after the first predict built
the model); no shuffling. Prints the numbers as JSON."""
import json

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
fc = tf.feature_column
day = fc.categorical_column_with_vocabulary_list("day", ["Sun", "Mon", "Tues"])
hour = fc.categorical_column_with_identity("hour", num_buckets=24)
columns = [fc.numeric_column("a"), fc.bucketized_column(fc.numeric_column("b"), [0.25, 0.5, 0.75]),
           fc.indicator_column(day), fc.embedding_column(fc.crossed_column([day, hour], 12), 3),
           fc.embedding_column(hour, 2)]
rs = np.random.RandomState(0)
features = {"a": rs.rand(32).astype(np.float32), "b": rs.rand(32).astype(np.float32),
            "day": np.array(["Sun", "Mon", "Tues", "Wed"])[rs.randint(0, 4, 32)], "hour": rs.randint(0, 24, 32)}
labels = (features["a"] * 2 + features["b"]).astype(np.float32)


def dataset():
    return tf.data.Dataset.from_tensor_slices((features, labels)).batch(8)


model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(columns), tf.keras.layers.Dense(4, activation="relu"),
                             tf.keras.layers.Dense(1)])
model.compile(tf.keras.optimizers.SGD(0.05), "mse")
model.predict(dataset().map(lambda f, l: f), steps=1)  # builds the model
start = np.random.RandomState(1)
model.set_weights([start.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
history = model.fit(dataset().repeat(), steps_per_epoch=4, epochs=2, verbose=0)
predictions = model.predict(dataset().map(lambda f, l: f), steps=4)
print(json.dumps({"tensorflow": tf.__version__, "shapes": [list(w.shape) for w in model.get_weights()],
                  "loss": [float(v) for v in history.history["loss"]],
                  "predictions": np.asarray(predictions).reshape(-1).tolist(),
                  "weights": [float(np.linalg.norm(w)) for w in model.get_weights()]}))
