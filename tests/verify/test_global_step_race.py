"""VER006: the racy global-step read of google-research/bert's optimizer, found in a training graph.

The graphs are built the way the programs build them (tf.compat.v1 graph mode, the global step
from get_or_create_global_step): BERT's own increment grouped with the updates is racy; TF's
`minimize(loss, global_step)` (increment after the updates) and a step read that only feeds a
summary are not. The testbed's TF 1.15 graph.pbtxt files gave the same answers (2026-11-27: the
BERT family's 7 programs racy, tpu_mnist and tpu_resnet_2019 not).
"""

from __future__ import annotations

import tensorflow as tf
from google.protobuf import text_format

from verify.global_step_race import parse_graph_pbtxt, racy_reads, racy_reads_in

tf1 = tf.compat.v1


def _graph(build) -> tf1.GraphDef:
    with tf.Graph().as_default() as graph:
        global_step = tf1.train.get_or_create_global_step()
        weight = tf1.get_variable("w", [3], initializer=tf1.ones_initializer())
        loss = tf.reduce_sum(weight * weight)
        build(global_step, weight, loss)
    return graph.as_graph_def()


def _bert_style(global_step, weight, loss):
    learning_rate = tf1.train.polynomial_decay(0.1, global_step, 100, end_learning_rate=0.0)
    warmup = tf.cast(global_step, tf.float32) / 10.0
    learning_rate = tf.minimum(learning_rate, warmup)
    update = tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss)  # no global_step
    new_global_step = global_step + 1
    tf.group(update, [global_step.assign(new_global_step)], name="train_op")


def _minimize_style(global_step, weight, loss):
    learning_rate = tf1.train.exponential_decay(0.1, global_step, 10, 0.5)
    tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step, name="train_op")


def _summary_only(global_step, weight, loss):
    update = tf1.train.GradientDescentOptimizer(0.1).minimize(loss)
    tf1.summary.scalar("step", tf.cast(global_step, tf.float32))
    tf.group(update, [global_step.assign_add(1)], name="train_op")


def test_bert_s_own_increment_grouped_with_the_updates_is_racy():
    racy = racy_reads(_graph(_bert_style).node)
    assert racy, "the schedule's reads of global_step are unordered with its assign"
    assert all("ReadVariableOp" in name for name in racy)


def test_minimize_with_global_step_orders_the_increment_after_the_updates():
    assert racy_reads(_graph(_minimize_style).node) == []


def test_a_step_read_feeding_only_a_summary_is_not_reported():
    assert racy_reads(_graph(_summary_only).node) == []


def test_a_graph_pbtxt_in_a_model_dir_is_read(tmp_path):
    graph_def = _graph(_bert_style)
    (tmp_path / "graph.pbtxt").write_text(text_format.MessageToString(graph_def))
    parsed = parse_graph_pbtxt((tmp_path / "graph.pbtxt").read_text())
    assert [(n.name, n.op, tuple(n.input)) for n in parsed] == [
        (n.name, n.op, tuple(n.input)) for n in graph_def.node]
    assert racy_reads_in(tmp_path) == racy_reads(graph_def.node)
    assert racy_reads_in(tmp_path / "missing") == []
