"""Variable initial values the TF1 way: every initializer form whose graph and eager behaviour differ.

TF 1.15 computed initial values in a graph (the Scaffold's init op); an eager evaluation of the
same initializer differs: `constant_initializer` with fewer values than elements (the last value
fills the rest in a graph, eager raises), `tf.constant(list, shape=...)`, random initializers
with an op-level seed (a graph draws each op's first numbers; eager reuses one cached kernel,
so a second variable with the same seed continues the stream), random tensors as initial values,
partitioned variables, dtype coercions. Each case builds its variables in model_fn, trains one
step whose train_op only increments the global step (so the checkpoint holds the initial values)
and reports them; a case TF 1.15 rejects reports the error's type and first line.

Prints one JSON line {case: {variable: value} or {"error": ..., "message": ...}}.
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "A folder; each case trains in its own subfolder.")
flags.DEFINE_string("cases", "all", "Comma-separated case names, or all.")
flags.DEFINE_integer("tf_random_seed", 42, "RunConfig(tf_random_seed): the graph-level seed.")
FLAGS = flags.FLAGS


def _same_seed_twice():
    for name in ("a", "b"):
        tf.get_variable(name, [3], initializer=tf.random_normal_initializer(seed=7))


CASES = {
    "constant_fewer_values": lambda: tf.get_variable(
        "v", [2, 3], initializer=tf.constant_initializer([1.0, 2.0])),
    "constant_more_values": lambda: tf.get_variable(
        "v", [2, 2], initializer=tf.constant_initializer([1.0, 2.0, 3.0, 4.0, 5.0])),
    "constant_verify_shape": lambda: tf.get_variable(
        "v", [2, 3], initializer=tf.constant_initializer([1.0, 2.0], verify_shape=True)),
    "constant_numpy_reshaped": lambda: tf.get_variable(
        "v", [2, 3], initializer=tf.constant_initializer(np.arange(6.0))),
    "tf_constant_list_with_shape": lambda: tf.get_variable(
        "v", initializer=tf.constant([1.0, 2.0], shape=[2, 3])),
    "variable_of_tf_constant_list": lambda: tf.Variable(tf.constant([7, 8], shape=[3]), name="v"),
    "int_variable_float_constant": lambda: tf.get_variable(
        "v", [3], dtype=tf.int32, initializer=tf.constant_initializer(1.7)),
    "float64_variable_int_values": lambda: tf.get_variable(
        "v", [2], dtype=tf.float64, initializer=tf.constant_initializer([1, 2])),
    "variable_python_int_as_float": lambda: tf.Variable(3, dtype=tf.float32, name="v"),
    "float16_random_op_seed": lambda: tf.get_variable(
        "v", [3], dtype=tf.float16, initializer=tf.random_normal_initializer(seed=3)),
    "variable_of_random_tensor_op_seed": lambda: tf.Variable(
        tf.random_normal([3], seed=9), name="v"),
    "two_variables_same_op_seed": _same_seed_twice,
    "glorot_uniform_op_seed": lambda: tf.get_variable(
        "v", [3, 2], initializer=tf.glorot_uniform_initializer(seed=5)),
    "truncated_normal_op_seed": lambda: tf.get_variable(
        "v", [4], initializer=tf.truncated_normal_initializer(seed=6)),
    "orthogonal_op_seed": lambda: tf.get_variable(
        "v", [3, 3], initializer=tf.orthogonal_initializer(seed=8)),
    "variance_scaling_op_seed": lambda: tf.get_variable(
        "v", [4, 3], initializer=tf.variance_scaling_initializer(seed=2)),
    "partitioned_constant": lambda: tf.get_variable(
        "v", [4, 2], partitioner=tf.fixed_size_partitioner(2),
        initializer=tf.constant_initializer([1.0, 2.0, 3.0])),
    "partitioned_random_op_seed": lambda: tf.get_variable(
        "v", [4, 2], partitioner=tf.fixed_size_partitioner(2),
        initializer=tf.random_uniform_initializer(seed=4)),
    "bool_zeros": lambda: tf.get_variable("v", [2], dtype=tf.bool,
                                          initializer=tf.zeros_initializer()),
    "int64_ones": lambda: tf.get_variable("v", [2], dtype=tf.int64,
                                          initializer=tf.ones_initializer()),
}


def input_fn(params):
    features = np.zeros((8, 1), np.float32)
    return tf.data.Dataset.from_tensor_slices((features, features)).repeat().batch(
        params["batch_size"], drop_remainder=True)


def make_model_fn(case):
    def model_fn(features, labels, mode, params):
        CASES[case]()
        loss = tf.reduce_sum(features) * 0.0
        train_op = tf.assign_add(tf.train.get_global_step(), 1)
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)
    return model_fn


def initial_values(case):
    config = tf.contrib.tpu.RunConfig(
        model_dir="%s/%s" % (FLAGS.model_dir, case), tf_random_seed=FLAGS.tf_random_seed,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=1))
    estimator = tf.contrib.tpu.TPUEstimator(
        model_fn=make_model_fn(case), config=config, use_tpu=False, train_batch_size=4)
    try:
        estimator.train(input_fn, max_steps=1)
    except Exception as error:  # pylint: disable=broad-except
        return {"error": type(error).__name__, "message": (str(error).splitlines() or [""])[0]}
    return {name: estimator.get_variable_value(name).tolist()
            for name in estimator.get_variable_names() if name != "global_step"}


def main(argv):
    del argv
    cases = sorted(CASES) if FLAGS.cases == "all" else FLAGS.cases.split(",")
    print(json.dumps({case: initial_values(case) for case in cases}))


if __name__ == "__main__":
    tf.app.run()
