"""compat/contrib_training.py: tf.contrib.training.create_train_op and its gradient helpers.

Trained numbers inside a TPUEstimator model_fn, against TF 1.15 on both current sides, are pinned
by test_real_patterns.py::test_create_train_op_trains_as_in_tf115; here: TF 1.15's exact
signatures (read in the oracle), what create_train_op returns and runs in a plain v1 graph, the
helpers' arithmetic and errors, and the names both tools serve.
"""

from __future__ import annotations

import inspect
import json
import logging
import textwrap

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.compat import contrib_training
from estimator_bridge.compat.namespace_table import MODULES
from migrate.tables.contrib import CONTRIB
from tests.support.oracles import oracle_python, run_json

tf1 = tf.compat.v1

NAMES = ("create_train_op", "add_gradients_summaries", "clip_gradient_norms",
         "clip_gradient_norms_fn", "multiply_gradients")

SIGNATURES_IN_TF115 = textwrap.dedent("""
    import inspect, json, sys
    import tensorflow as tf
    print(json.dumps({name: str(inspect.signature(getattr(tf.contrib.training, name)))
                      for name in sys.argv[1:]}))
""")


@pytest.mark.oracle
def test_signatures_are_tf115_s(tmp_path):
    script = tmp_path / "signatures.py"
    script.write_text(SIGNATURES_IN_TF115)
    oracle = run_json(oracle_python("tf115"), script, *NAMES, timeout=300)
    ours = {name: str(inspect.signature(getattr(contrib_training, name))) for name in NAMES}
    assert ours == oracle, json.dumps({"ours": ours, "tf115": oracle}, indent=1)


def test_runner_and_codemod_serve_the_same_names():
    for module in ("tensorflow.contrib.training",
                   "tensorflow.contrib.training.python.training.training"):
        for name in NAMES:
            assert MODULES[module].entries[name] == f"compat:contrib_training.{name}"
    for name in NAMES:
        assert CONTRIB[f"tensorflow.contrib.training.{name}"].target == \
            f"estimator_bridge.compat.contrib_training.{name}"


def _graph_with_loss(loss_value=None):
    """x = 3 (trainable), loss = x^2 (or a constant), a counter increment in UPDATE_OPS."""
    x = tf1.get_variable("x", initializer=3.0)
    counter = tf1.get_variable("counter", initializer=0.0, trainable=False)
    tf1.add_to_collection(tf1.GraphKeys.UPDATE_OPS, tf1.assign_add(counter, 1.0))
    loss = tf.square(x) if loss_value is None else tf.constant(loss_value) * x
    return x, counter, loss


def test_train_op_is_the_loss_after_update_ops_and_apply_gradients():
    with tf.Graph().as_default():
        x, counter, loss = _graph_with_loss()
        train_op = contrib_training.create_train_op(
            loss, tf1.train.GradientDescentOptimizer(0.1))
        assert isinstance(train_op, tf.Tensor)
        # apply_gradients collects its op (as in TF 1.15), create_train_op then the loss.
        collected = tf1.get_collection(tf1.GraphKeys.TRAIN_OP)
        assert len(collected) == 2 and collected[1] is train_op
        step = tf1.train.get_global_step()
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            assert session.run(train_op) == pytest.approx(9.0)  # the loss before the update
            assert session.run([x, counter, step]) == [pytest.approx(3.0 - 0.1 * 6.0), 1.0, 1]
        again = contrib_training.create_train_op(loss, tf1.train.GradientDescentOptimizer(0.1),
                                                 global_step=None)
        collected = tf1.get_collection(tf1.GraphKeys.TRAIN_OP)
        assert len(collected) == 4 and collected[1] is train_op and collected[3] is again


def test_in_a_traced_function_the_collection_is_compared_by_identity():
    """Where the bridge builds model_fns (a FuncGraph), TF 2's `==` on tensors is elementwise:
    TF 1.15's `if train_op not in train_ops` would compare the loss Tensor with the Operation
    apply_gradients just collected and raise. TF 1.x compared by identity, as the bridge's does.
    (A second v1 train op in the same traced graph still fails, in TF's own
    Optimizer.apply_gradients, which checks the collection the same naive way.)"""
    x = tf.Variable(3.0)

    @tf.function(autograph=False)
    def step():
        train_op = contrib_training.create_train_op(
            tf.square(x), tf1.train.GradientDescentOptimizer(0.1), global_step=None,
            variables_to_train=[x])
        collected = tf1.get_collection(tf1.GraphKeys.TRAIN_OP)
        assert len(collected) == 2 and collected[1] is train_op
        with pytest.raises(TypeError):
            train_op in collected[:1]  # noqa: B015  (the naive check)
        return train_op

    assert float(step()) == 9.0
    assert float(x) == pytest.approx(3.0 - 0.1 * 6.0)


def test_variables_to_train_update_ops_and_the_warning(caplog):
    with tf.Graph().as_default():
        x, counter, loss = _graph_with_loss()
        frozen = tf1.get_variable("frozen", initializer=1.0)
        with caplog.at_level(logging.WARNING):
            train_op = contrib_training.create_train_op(
                loss + frozen, tf1.train.GradientDescentOptimizer(0.1), update_ops=[],
                variables_to_train=[x])
        assert "does not contain all the update_ops" in caplog.text
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            session.run(train_op)
            assert session.run([frozen, counter]) == [1.0, 0.0]  # not trained, no update ops


def test_check_numerics():
    with tf.Graph().as_default():
        _, _, loss = _graph_with_loss(loss_value=np.nan)
        train_op = contrib_training.create_train_op(loss, tf1.train.GradientDescentOptimizer(0.1))
        unchecked = contrib_training.create_train_op(
            loss, tf1.train.GradientDescentOptimizer(0.1), check_numerics=False)
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="LossTensor is inf or nan"):
                session.run(train_op)
            assert np.isnan(session.run(unchecked))


def test_gradient_summaries_and_transform():
    with tf.Graph().as_default():
        x, _, loss = _graph_with_loss()
        contrib_training.create_train_op(
            loss, tf1.train.GradientDescentOptimizer(0.1), summarize_gradients=True,
            transform_grads_fn=contrib_training.clip_gradient_norms_fn(1.0))
        names = sorted(op.name for op in tf1.get_collection(tf1.GraphKeys.SUMMARIES))
        assert names == ["summarize_grads/x_gradient:0", "summarize_grads/x_gradient_norm:0"]
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            session.run(tf1.get_collection(tf1.GraphKeys.TRAIN_OP)[-1])
            assert session.run(x) == pytest.approx(3.0 - 0.1 * 1.0)  # gradient 6 clipped to 1


def test_clip_and_multiply_dense_and_indexed_slices():
    with tf.Graph().as_default():
        a = tf1.get_variable("a", initializer=[0.0, 0.0])
        b = tf1.get_variable("b", initializer=[0.0, 0.0])
        sparse = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([2, 2]))
        dense = tf.constant([6.0, 8.0])
        clipped = contrib_training.clip_gradient_norms([(sparse, a), (dense, b), (None, a)], 1.0)
        multiplied = contrib_training.multiply_gradients(
            [(sparse, a), (dense, b)], {a: 2.0, "b": 0.5})
        assert clipped[2] == (None, a) and isinstance(clipped[0][0], tf.IndexedSlices)
        with tf1.Session() as session:
            values = session.run([clipped[0][0].values, clipped[1][0],
                                  multiplied[0][0].values, multiplied[1][0]])
        np.testing.assert_allclose(values[0], [[0.6, 0.8]], rtol=1e-6)
        np.testing.assert_allclose(values[1], [0.6, 0.8], rtol=1e-6)
        np.testing.assert_allclose(values[2], [[6.0, 8.0]])
        np.testing.assert_allclose(values[3], [3.0, 4.0])


def test_multiply_gradients_errors_are_tf115_s():
    with tf.Graph().as_default():
        a = tf1.get_variable("a", initializer=1.0)
        with pytest.raises(ValueError, match="`grads_and_vars` must be a list."):
            contrib_training.multiply_gradients(((None, a),), {a: 1.0})
        with pytest.raises(ValueError, match="`gradient_multipliers` is empty."):
            contrib_training.multiply_gradients([(None, a)], {})
        with pytest.raises(ValueError, match="`gradient_multipliers` must be a dict."):
            contrib_training.multiply_gradients([(None, a)], [("a", 1.0)])
        with pytest.raises(ValueError, match="Requested multiple of `None` gradient."):
            contrib_training.multiply_gradients([(None, a)], {"a": 1.0})
