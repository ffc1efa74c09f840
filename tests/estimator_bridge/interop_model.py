"""One tiny TF1-style model for the interop, export and warm-start tests, runnable on both sides.

Written against `tf.compat.v1` only, so the same file runs in the TF 1.15 oracle (CPython 3.7,
imported by `interop_tf115.py`) and on current TensorFlow through estimator_bridge: the spec
class and CrossShardOptimizer come in as arguments. Momentum gives the checkpoint optimizer
slots (`dense/kernel/Momentum`), so resuming is sensitive to every saved variable.
"""

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1

FEATURES = np.random.RandomState(3).randn(96, 8).astype(np.float32)
LABELS = ((FEATURES[:, 0] > 0).astype(np.int32) + (FEATURES[:, 1] > 1).astype(np.int32))
SERVING_INPUTS = np.random.RandomState(4).randn(5, 8).astype(np.float32)
KERNEL_INIT = np.random.RandomState(5).randn(8, 3).astype(np.float32) * 0.1


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def serving_input_receiver_fn_with(receiver_class):
    def serving_input_receiver_fn():
        inputs = tf1.placeholder(tf.float32, [None, 8], name="x")
        return receiver_class({"x": inputs}, {"x": inputs})
    return serving_input_receiver_fn


def make_model_fn(spec_class, cross_shard_optimizer=None, hidden_scope="dense"):
    def model_fn(features, labels, mode, params):
        if isinstance(features, dict):
            features = features["x"]
        with tf1.variable_scope(hidden_scope):
            kernel = tf1.get_variable("kernel", [8, 3],
                                      initializer=tf1.constant_initializer(KERNEL_INIT))
            bias = tf1.get_variable("bias", [3], initializer=tf1.zeros_initializer())
        logits = tf1.matmul(features, kernel) + bias
        if mode == "infer":
            return spec_class(mode=mode, predictions={
                "logits": logits, "probabilities": tf1.nn.softmax(logits),
                "class_ids": tf1.argmax(logits, 1)})
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = None
        if mode == "train":
            optimizer = tf1.train.MomentumOptimizer(0.1, momentum=0.9)
            if params["use_tpu"] and cross_shard_optimizer is not None:
                optimizer = cross_shard_optimizer(optimizer)
            train_op = optimizer.minimize(loss, tf1.train.get_global_step())
        def metric_fn(labels, logits):
            return {"accuracy": tf1.metrics.accuracy(labels, tf1.argmax(logits, 1))}
        return spec_class(mode=mode, loss=loss, train_op=train_op,
                          eval_metrics=(metric_fn, [labels, logits]))
    return model_fn


def predict_input_fn(params):
    """SERVING_INPUTS as features-only batches (predict)."""
    dataset = tf.data.Dataset.from_tensor_slices({"x": SERVING_INPUTS})
    return dataset.batch(params["batch_size"], drop_remainder=False)


def make_warm_model_fn(spec_class, init_checkpoint, where):
    """The model under scope 'bert', initialised from `init_checkpoint`'s 'dense' weights.

    where: 'scaffold_fn' (BERT's TPU pattern: init_from_checkpoint inside scaffold_fn) or
    'model_fn' (called directly after the variables exist, the GPU/CPU pattern).
    """
    base = make_model_fn(spec_class, hidden_scope="bert")

    def model_fn(features, labels, mode, params):
        def initialise():
            tf1.train.init_from_checkpoint(init_checkpoint, {"dense/": "bert/"})
            return tf1.train.Scaffold()

        spec = base(features, labels, mode, params)
        if where == "model_fn":
            initialise()
            return spec
        return spec._replace(scaffold_fn=initialise)

    return model_fn
