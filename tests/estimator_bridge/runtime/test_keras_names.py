"""runtime/keras_names.py: what model_fn code sees of a Keras weight while the bridge traces it.

The checkpoint names themselves are pinned against TF 1.15 by the oracle tests
test_keras_model_subclass.py and test_keras_layers_in_model_fn.py; these tests pin what TF1 code
reads in the build pass (EMA's `variables_to_restore` keys its map by `v.op.name`).
"""

from __future__ import annotations

import tensorflow as tf

import estimator_bridge as tpu
from tests.estimator_bridge import tiny

tf1 = tf.compat.v1


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self._dense = tf.keras.layers.Dense(3)

    def call(self, inputs):
        with tf1.variable_scope("head"):
            return self._dense(inputs)


def test_keras_weights_show_their_tf1_names_to_model_fn_in_every_pass(tmp_path):
    seen = []

    def model_fn(features, labels, mode, params):
        with tf1.variable_scope("outer"):
            logits = Net()(features)
        seen.append(sorted(v.op.name for v in tf1.trainable_variables()))
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf1.train.get_global_step())
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    estimator = tiny.make_estimator(str(tmp_path), model_fn=model_fn)
    estimator.train(tiny.input_fn, max_steps=2)
    expected = ["outer/net/head/dense/bias", "outer/net/head/dense/kernel"]
    assert seen and all(names == expected for names in seen), seen
    names = {name for name, _ in tf.train.list_variables(estimator.latest_checkpoint())}
    assert set(expected) <= names
    assert not any("seed_generator" in name for name in names)
