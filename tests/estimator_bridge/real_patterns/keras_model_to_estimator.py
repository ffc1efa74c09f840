"""A compiled tf.keras model trained as an Estimator by model_to_estimator (TF's 2018-2020 tutorials).

The Estimator's model_fn cloned the model on input_fn's features (a dict keyed by the input
layer's name), trained it with the compiled optimizer and loss, evaluated the compiled metrics
and started from the model's weights at the call.

  python keras_model_to_estimator.py MODEL_DIR [functional|sequential|tutorial] [split]

(`tutorial`: TensorFlow's 2019 "Create an Estimator from a Keras model" model as written: one
sigmoid unit under categorical_crossentropy with the class ids as labels; Keras squeezed the
(batch, 1) output to the labels' rank, so the crossentropy normalised over the batch.)

(`split`: train in two calls of 6 steps, the second restoring the first's checkpoint.)

prints one JSON line: the loss of every training step (from the `loss` summaries), the
evaluation, the first predictions and the trained weights.
"""

import glob
import json
import sys

import numpy as np
import tensorflow as tf

MODEL_DIR = sys.argv[1]
FUNCTIONAL = len(sys.argv) > 2 and sys.argv[2] == "functional"
TUTORIAL = len(sys.argv) > 2 and sys.argv[2] == "tutorial"
SPLIT = len(sys.argv) > 3 and sys.argv[3] == "split"
STEPS = 12

rows = np.random.RandomState(0).rand(96, 4).astype("float32")
classes = (rows.sum(axis=1) * 2).astype("int64") % 3

if FUNCTIONAL:
    inputs = tf.keras.layers.Input(shape=(4,), name="measurements")
    hidden = tf.keras.layers.Dense(8, activation="relu", name="hidden",
                                   kernel_regularizer=tf.keras.regularizers.l2(0.01))(inputs)
    outputs = tf.keras.layers.Dense(3, activation="softmax", name="species")(hidden)
    model = tf.keras.models.Model(inputs, outputs)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    input_name = "measurements"
elif TUTORIAL:
    model = tf.keras.models.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,)),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(loss="categorical_crossentropy", optimizer="adam")
    input_name = "dense_input"
else:
    model = tf.keras.models.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,)),
        tf.keras.layers.Dense(3, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    input_name = "dense_input"


def input_fn():
    dataset = tf.data.Dataset.from_tensor_slices(({input_name: rows}, classes))
    return dataset.repeat().batch(8)


def eval_input_fn():
    return tf.data.Dataset.from_tensor_slices(({input_name: rows}, classes)).batch(20)


# Fixed start weights (the estimator must start from them, not from the initializers).
model.set_weights([np.random.RandomState(i + 1).uniform(-0.5, 0.5, w.shape).astype("float32")
                   for i, w in enumerate(model.get_weights())])
start = {name: np.asarray(w, dtype=np.float64).ravel()[:6].tolist()
         for name, w in zip([w.name for w in model.weights], model.get_weights())}
config = tf.estimator.RunConfig(model_dir=MODEL_DIR, save_summary_steps=1, tf_random_seed=1)
estimator = tf.keras.estimator.model_to_estimator(keras_model=model, config=config)
for steps in ([STEPS // 2, STEPS // 2] if SPLIT else [STEPS]):
    estimator.train(input_fn, steps=steps)
evaluation = estimator.evaluate(eval_input_fn)
predictions = [p for _, p in zip(range(3), estimator.predict(eval_input_fn))]

losses, loss_tags = {}, set()
for path in sorted(glob.glob(MODEL_DIR + "/events.out.tfevents.*")):
    for event in tf.compat.v1.train.summary_iterator(path):
        for value in event.summary.value:
            if value.tag in ("loss", "loss_1"):  # loss_1: the Keras graph's own `loss` scope came first
                losses[int(event.step)] = float(value.simple_value)
                loss_tags.add(value.tag)
reader = tf.train.load_checkpoint(estimator.latest_checkpoint())
weights = {name: np.asarray(reader.get_tensor(name), dtype=np.float64).ravel()[:6].tolist()
           for name, dtype in sorted(reader.get_variable_to_dtype_map().items())
           if dtype.is_floating}
print(json.dumps({
    "losses": [losses[step] for step in sorted(losses)],
    "steps": sorted(losses),
    "loss_tags": sorted(loss_tags),
    "evaluation": {k: float(v) for k, v in evaluation.items()},
    "predictions": [{k: np.asarray(v, dtype=np.float64).tolist() for k, v in p.items()} for p in predictions],
    "weights": weights,
    "start": start,
}))
