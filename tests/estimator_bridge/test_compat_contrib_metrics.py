"""compat/contrib_metrics.py: tf.contrib.metrics with TF 1.15's signatures and arithmetic.

The values of an eval metric_fn built from them, against TF 1.15 on both current sides, are
pinned by test_real_patterns.py::test_contrib_streaming_metrics_give_tf115_s_values; here: every
name of the shared table is served with TF 1.15's exact signature (read in the oracle), the
parameter order is contrib's, and streaming_concat's max_size and errors.
"""

from __future__ import annotations

import inspect
import json
import textwrap

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.compat import contrib_metrics
from migrate.tables.contrib_metrics import DELEGATED, FROM_TF_SLIM
from tests.support.oracles import oracle_python, run_json

tf1 = tf.compat.v1

SIGNATURES_IN_TF115 = textwrap.dedent("""
    import inspect, json, sys
    import tensorflow as tf
    print(json.dumps({name: str(inspect.signature(getattr(tf.contrib.metrics, name)))
                      for name in sys.argv[1:]}))
""")


def test_every_table_name_is_served():
    assert contrib_metrics.SUPPORTED == tuple(sorted(DELEGATED)) + FROM_TF_SLIM
    for name in contrib_metrics.SUPPORTED:
        assert callable(getattr(contrib_metrics, name)), name


@pytest.mark.oracle
def test_signatures_are_tf115_s(tmp_path):
    script = tmp_path / "signatures.py"
    script.write_text(SIGNATURES_IN_TF115)
    oracle = run_json(oracle_python("tf115"), script, *contrib_metrics.SUPPORTED, timeout=300)
    ours = {name: str(inspect.signature(getattr(contrib_metrics, name)))
            for name in contrib_metrics.SUPPORTED}
    assert ours == oracle, json.dumps({"ours": ours, "tf115": oracle}, indent=1)


def _run(metric_pair_fn, *arrays):
    graph = tf.Graph()
    with graph.as_default():
        tensors = [tf.constant(array) for array in arrays]
        value, update = metric_pair_fn(*tensors)
        with tf1.Session(graph=graph) as session:
            session.run(tf1.local_variables_initializer())
            session.run(update)
            return session.run(value)


def test_positional_arguments_bind_in_contrib_s_order():
    """streaming_precision(predictions, labels): swapping would give recall's value here."""
    predictions = np.array([1, 1, 1, 0], np.int64)
    labels = np.array([1, 0, 0, 0], np.int64)
    assert _run(contrib_metrics.streaming_precision, predictions, labels) == pytest.approx(1 / 3)
    assert _run(contrib_metrics.streaming_recall, predictions, labels) == pytest.approx(1.0)


def test_streaming_concat_keeps_at_most_max_size_rows():
    graph = tf.Graph()
    with graph.as_default():
        batch = tf1.placeholder(tf.float32, [None, 2])
        value, update = contrib_metrics.streaming_concat(batch, max_size=5)
        with tf1.Session(graph=graph) as session:
            session.run(tf1.local_variables_initializer())
            for start in (0, 3):
                session.run(update, {batch: np.arange(start * 2, start * 2 + 6,
                                                      dtype=np.float32).reshape(3, 2)})
            kept = session.run(value)
    np.testing.assert_array_equal(kept, np.arange(10, dtype=np.float32).reshape(5, 2))


def test_streaming_concat_needs_static_dimensions_besides_axis():
    graph = tf.Graph()
    with graph.as_default():
        with pytest.raises(ValueError, match="statically known size"):
            contrib_metrics.streaming_concat(tf1.placeholder(tf.float32, [None, None]))
        with pytest.raises(ValueError, match=r"axis = 2 not in \[0, 2\)"):
            contrib_metrics.streaming_concat(tf1.placeholder(tf.float32, [None, 3]), axis=2)


def test_aggregate_metrics_needs_a_pair():
    with pytest.raises(ValueError, match="at least one value_tensor/update_op pair"):
        contrib_metrics.aggregate_metrics()
