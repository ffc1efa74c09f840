"""Variable initial values follow TF 1.15's graph semantics (estimator_bridge/runtime/initial_values.py).

The oracle test runs `real_patterns/initial_values.py` (20 initializer forms whose graph and
eager behaviour differ) unchanged on TF 1.15, under the compat runner and after
`estimator-migrate`, live, and requires the same values bit for bit (the same kernels compute
them; measured: identical) and, where TF 1.15 rejects a form, an error of the same type saying
the same thing (TF 2.21 words some messages differently). The fast tests pin the TF1 rules the
oracle showed, on the bridge alone.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from tests.support.oracles import REPO_ROOT
from tests.support.three_sides import run_side

tf1 = tf.compat.v1

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "real_patterns" / "initial_values.py"

# TF 1.15's message -> the facts TF 2.21's message for the same error must state.
SAME_ERROR_FACTS = {
    "constant_more_values": [r"Too many elements provided", r"\b4\b", r"\b5\b"],
    "constant_verify_shape": [r"Expected Tensor's shape: \(2, 3\)", r"got \(2,\)"],
    "int_variable_float_constant": [r"Expected int32", r"got 1\.7 of type 'float'"],
}


@pytest.mark.oracle
def test_initial_values_equal_tf115_on_every_side(tmp_path):
    sides = {side: run_side(side, PROGRAM, ["--model_dir={model_dir}"], tmp_path)
             for side in ("oracle", "runner", "migrated")}
    for side in sides.values():
        assert side.returncode == 0 and side.result is not None, \
            f"{side.name} failed:\n{side.stderr[-4000:]}"
    expected = sides["oracle"].result
    assert len(expected) == 20
    for name in ("runner", "migrated"):
        actual = sides[name].result
        assert sorted(actual) == sorted(expected), name
        for case, values in expected.items():
            where = f"{name}: {case}"
            if "error" in values:
                assert actual[case].get("error") == values["error"], (where, actual[case])
                for fact in SAME_ERROR_FACTS[case]:
                    assert re.search(fact, values["message"]), (case, values["message"])
                    assert re.search(fact, actual[case]["message"]), (where, actual[case])
                continue
            assert sorted(actual[case]) == sorted(values), where
            for variable, value in values.items():
                np.testing.assert_array_equal(np.asarray(actual[case][variable]),
                                              np.asarray(value), err_msg=f"{where}: {variable}")


# ---- the same rules on the bridge alone ----------------------------------------------------

def input_fn(params):
    features = np.zeros((8, 1), np.float32)
    return tf.data.Dataset.from_tensor_slices((features, features)).repeat().batch(
        params["batch_size"], drop_remainder=True)


def initial_values(tmp_path, make_variables, tf_random_seed=42, max_steps=1):
    def model_fn(features, labels, mode, params):
        made = make_variables()  # a list: ops a train step runs besides the step increment
        updates = made if isinstance(made, list) else []
        return tpu.TPUEstimatorSpec(
            mode=mode, loss=tf.reduce_sum(features) * 0.0,
            train_op=tf.group(tf1.assign_add(tf1.train.get_global_step(), 1), *updates))

    estimator = tpu.TPUEstimator(
        model_fn=model_fn, use_tpu=False, train_batch_size=4,
        config=tpu.RunConfig(model_dir=str(tmp_path), tf_random_seed=tf_random_seed))
    estimator.train(input_fn, max_steps=max_steps)
    return {name: estimator.get_variable_value(name)
            for name in estimator.get_variable_names() if name != "global_step"}


def test_constant_initializer_fills_with_the_last_value(tmp_path):
    values = initial_values(tmp_path, lambda: tf1.get_variable(
        "v", [2, 3], initializer=tf1.constant_initializer([1.0, 2.0])))
    np.testing.assert_array_equal(values["v"], [[1, 2, 2], [2, 2, 2]])


def test_variables_with_the_same_op_seed_start_equal(tmp_path):
    def make():
        for name in ("a", "b"):
            tf1.get_variable(name, [3], initializer=tf1.random_normal_initializer(seed=7))

    values = initial_values(tmp_path, make)
    np.testing.assert_array_equal(values["a"], values["b"])


def test_a_random_tensor_is_a_valid_initial_value(tmp_path):
    first = initial_values(tmp_path / "1", lambda: tf1.Variable(
        tf1.random_normal([3], seed=9), name="v"))
    again = initial_values(tmp_path / "2", lambda: tf1.Variable(
        tf1.random_normal([3], seed=9), name="v"))
    np.testing.assert_array_equal(first["v"], again["v"])  # graph seed 42, op seed 9


def test_partitioned_variables_are_one_tensor_in_the_checkpoint_and_resume(tmp_path):
    def make():
        v = tf1.get_variable("v", [4, 2], partitioner=tf1.fixed_size_partitioner(2),
                             initializer=tf1.constant_initializer([1.0, 2.0, 3.0]))
        # Every train step adds 1 to each part, so a resume that re-initialised the parts
        # instead of restoring them would end at init + 1, not init + 2.
        return [tf1.assign_add(part, tf.ones_like(part)) for part in v]

    initial = np.array([[1, 2], [3, 3], [1, 2], [3, 3]], np.float32)
    values = initial_values(tmp_path, make)
    # Each part [2, 2] is filled from the same three values, as TF 1.15 did; one step adds 1.
    np.testing.assert_array_equal(values["v"], initial + 1)
    # A new estimator on the same model_dir restores the parts from the sliced tensor.
    resumed = initial_values(tmp_path, make, max_steps=2)
    np.testing.assert_array_equal(resumed["v"], initial + 2)
