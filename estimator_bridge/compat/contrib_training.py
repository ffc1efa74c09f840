"""`tf.contrib.training.create_train_op` and its gradient helpers: tf-slim's.

TPUEstimator model_fns of 2018-2020 (tensorflow/tpu's MNIST colab, tensor2robot) build their
train_op with `create_train_op(loss, optimizer, ...)`, which also runs UPDATE_OPS and can clip or
summarise gradients. tf-slim's code keeps the update ops in a set and checks `train_op not in
train_ops` as TF 1.x could (graph tensors hashed and compared by identity); in a FuncGraph TF 2
hashes nothing and compares elementwise, so `create_train_op` runs it with TF 1.x's identity rule
for tensors and the TRAIN_OP collection (runtime/tf1_hashing.py, what model_fns get anyway).
"""

from __future__ import annotations

import functools

from estimator_bridge.compat import slim_support  # noqa: F401  (names tf-slim looks for on TF 2.21)
from tf_slim.training import training as _slim_training
from tf_slim.training.training import (add_gradients_summaries, clip_gradient_norms, clip_gradient_norms_fn,
                                       multiply_gradients)

from estimator_bridge.runtime.tf1_hashing import hashable_by_identity, identity_train_op_collection

__all__ = ["add_gradients_summaries", "clip_gradient_norms", "clip_gradient_norms_fn",
           "create_train_op", "multiply_gradients"]


@functools.wraps(_slim_training.create_train_op)
def create_train_op(*args, **kwargs):
    with hashable_by_identity():
        identity_train_op_collection()
        return _slim_training.create_train_op(*args, **kwargs)
