"""A tf.keras Dropout layer called with training=True in a TPUEstimator model_fn (EfficientNet's head).

TF 1.15 drew a fresh dropout mask every time a step ran. The model_fn records the mask of every
train step in a non-trainable variable (rows indexed by the global step; 3 loops of 2 steps) and
predict returns the mask of every batch. Prints one JSON line: how many different masks training
and prediction saw, out of how many steps and batches.
"""

import argparse
import json

import numpy as np
import tensorflow.compat.v1 as tf

UNITS = 64
STEPS = 6
PREDICT_BATCHES = 4


def model_fn(features, labels, mode, params):
    kept = tf.cast(tf.keras.layers.Dropout(0.5)(tf.ones([1, UNITS]), training=True) > 0, tf.float32)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.tpu.TPUEstimatorSpec(mode, predictions={"kept": kept})
    weights = tf.get_variable("w", [UNITS], initializer=tf.ones_initializer())
    loss = tf.reduce_sum(tf.square(weights * kept[0] - features[0]))
    masks = tf.get_variable("masks", [STEPS, UNITS], initializer=tf.zeros_initializer(), trainable=False)
    step = tf.train.get_global_step()
    record = tf.scatter_update(masks, tf.reshape(step, [1]), kept)
    with tf.control_dependencies([record]):
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, step)
    return tf.estimator.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn(params):
    data = tf.data.Dataset.from_tensors((tf.zeros([UNITS]), tf.zeros([1]))).repeat()
    return data.batch(params["batch_size"], drop_remainder=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    args = parser.parse_args()
    config = tf.estimator.tpu.RunConfig(model_dir=args.model_dir,
                                        tpu_config=tf.estimator.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.estimator.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                              train_batch_size=1, predict_batch_size=1)
    estimator.train(input_fn, max_steps=STEPS)
    train_masks = estimator.get_variable_value("masks")
    predicted = [row["kept"] for _, row in zip(range(PREDICT_BATCHES), estimator.predict(input_fn))]
    print(json.dumps({
        "train_steps": STEPS,
        "train_masks_distinct": len({tuple(row) for row in np.asarray(train_masks).tolist()}),
        "train_masks_recorded": int(np.count_nonzero(np.asarray(train_masks).sum(axis=1))),
        "predict_batches": PREDICT_BATCHES,
        "predict_masks_distinct": len({tuple(np.asarray(row).ravel().tolist()) for row in predicted}),
    }))


if __name__ == "__main__":
    main()
