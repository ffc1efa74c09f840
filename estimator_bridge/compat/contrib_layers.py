"""tf.contrib.layers' layer functions: tf-slim's (contrib.layers' maintained extraction).

conv1d/2d/3d and their transposes, separable and in-plane convolutions, fully_connected (and
linear/relu/relu6/elu), bias_add, instance_norm, pooling, dropout, flatten, one_hot_encoding,
repeat, stack, softmax: TF 1.15's signatures, defaults, `weights`/`biases` names and scopes, all
`add_arg_scope`-decorated (one scope stack with compat/contrib_arg_scope.py). `batch_norm` is
compat/contrib_batch_norm.py; `layer_norm`, the initializers and regularizers are
compat/contrib_helpers.py.
"""

from __future__ import annotations

from estimator_bridge.compat import slim_support  # noqa: F401  (normalizer_fn=batch_norm's module path)
from tf_slim.layers.layers import (avg_pool2d, avg_pool3d, bias_add, conv1d, conv2d, conv2d_in_plane,
                                   conv2d_transpose, conv3d, conv3d_transpose, convolution, convolution1d,
                                   convolution2d, convolution2d_in_plane, convolution2d_transpose,
                                   convolution3d, convolution3d_transpose, dropout, elu, flatten,
                                   fully_connected, linear, max_pool2d, max_pool3d, one_hot_encoding, relu,
                                   relu6, repeat, separable_conv2d, separable_convolution2d, softmax, stack)
from tf_slim.layers.normalization import instance_norm

__all__ = ["convolution", "convolution1d", "convolution2d", "convolution3d", "conv1d", "conv2d",
           "conv3d", "convolution2d_transpose", "convolution3d_transpose", "conv2d_transpose",
           "conv3d_transpose", "fully_connected", "linear", "relu", "relu6", "elu",
           "instance_norm", "max_pool2d", "max_pool3d", "avg_pool2d", "avg_pool3d", "dropout",
           "bias_add", "flatten", "one_hot_encoding", "repeat", "stack", "separable_conv2d",
           "separable_convolution2d", "conv2d_in_plane", "convolution2d_in_plane", "softmax"]
