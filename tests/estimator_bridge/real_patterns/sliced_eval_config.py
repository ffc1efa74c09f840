"""TPUConfig(eval_training_input_configuration=SLICED) with use_tpu=False, as
google-research/lasertagger's run_lasertagger.py (2020) configures it: TF 1.15 trains, then
refuses to call the evaluation input_fn off the TPU.

Prints, as one JSON line, the final variables and the evaluation's error.
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).randn(32, 2).astype(np.float32)
LABELS = FEATURES.sum(axis=1, keepdims=True)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS)).repeat()
    return dataset.batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
    predictions = tf.layers.dense(features, 1, kernel_initializer=tf.constant_initializer(0.2))
    loss = tf.losses.mean_squared_error(labels, predictions)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(
        model_dir=FLAGS.model_dir,
        tpu_config=tf.contrib.tpu.TPUConfig(
            iterations_per_loop=2,
            per_host_input_for_training=tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2,
            eval_training_input_configuration=tf.contrib.tpu.InputPipelineConfig.SLICED))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=4)
    try:
        estimator.evaluate(input_fn, steps=1)
        error = None
    except ValueError as exception:
        error = str(exception)
    variables = {name: np.asarray(estimator.get_variable_value(name)).ravel().tolist()
                 for name in estimator.get_variable_names() if name != "global_step"}
    print(json.dumps({"evaluate_error": error, "variables": variables}))


if __name__ == "__main__":
    tf.app.run()
