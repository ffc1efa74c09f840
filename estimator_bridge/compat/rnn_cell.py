"""TF 1.x's RNN cells: `tf.nn.rnn_cell.*` and `tf.contrib.rnn`'s cells and wrappers.

TF 1.15's `tf.nn.rnn_cell` (and `tf.contrib.rnn`, which star-imported it) was
tensorflow/python/ops/rnn_cell_impl.py. TF 2.21 still ships that code, moved to
tensorflow/python/keras/layers/legacy_rnn/rnn_cell_impl.py and re-exported by its own
tensorflow/python/ops/rnn_cell_impl.py (both import on TF 2.21 with Keras 3); only the public
`tf.compat.v1.nn.rnn_cell` names are generated to load them through Keras 2 (tf_keras) and raise
"`LSTMCell` is not available with Keras 3". The classes below are those objects: the same cells,
variable names (`rnn/multi_rnn_cell/cell_0/lstm_cell/kernel`), initialisers and arithmetic, and they
work in graph mode, with `tf.compat.v1.nn.dynamic_rnn`/`static_rnn`, and in a model_fn under the
bridge. The differences from TF 1.15's file are the TF 2 port's (imports, `tensor.Tensor`,
`tf_config.list_logical_devices`, deprecation warnings).

tf.contrib.rnn's `EmbeddingWrapper`, `InputProjectionWrapper` and `OutputProjectionWrapper`
(contrib/rnn/python/ops/core_rnn_cell.py) have no TF 2 copy: they are TF 1.15's code here, line for
line. Porting to Keras cells instead would change variables and arithmetic.
Oracle fixture tests/migrate/fixtures/contrib/rnn_cells.
"""

from __future__ import annotations

import math

from tensorflow.python.framework import constant_op, dtypes, ops
from tensorflow.python.ops import array_ops, embedding_ops, init_ops, math_ops, nn_ops
from tensorflow.python.ops import rnn_cell_impl as _impl
from tensorflow.python.ops import variable_scope as vs
from tensorflow.python.platform import tf_logging as logging
from tensorflow.python.util import nest

RNNCell = _impl.RNNCell
LayerRNNCell = _impl.LayerRNNCell
BasicRNNCell = _impl.BasicRNNCell
BasicLSTMCell = _impl.BasicLSTMCell
LSTMCell = _impl.LSTMCell
GRUCell = _impl.GRUCell
MultiRNNCell = _impl.MultiRNNCell
DropoutWrapper = _impl.DropoutWrapper
ResidualWrapper = _impl.ResidualWrapper
DeviceWrapper = _impl.DeviceWrapper
LSTMStateTuple = _impl.LSTMStateTuple

__all__ = ["RNNCell", "LayerRNNCell", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
           "DropoutWrapper", "ResidualWrapper", "DeviceWrapper", "LSTMStateTuple", "EmbeddingWrapper",
           "InputProjectionWrapper", "OutputProjectionWrapper"]

_WEIGHTS_VARIABLE_NAME = "kernel"
_BIAS_VARIABLE_NAME = "bias"


def _static_width(shape) -> int | None:
    """`shape.dims[1].value` of TF 1.15 (a Dimension there, an int or None in TF 2)."""
    width = shape.dims[1]
    return getattr(width, "value", width)


class _Linear:
    """Linear map: sum_i(args[i] * W[i]), W a `kernel` variable (and a `bias`) in the current scope
    (TF 1.15: contrib/rnn/python/ops/core_rnn_cell.py)."""

    def __init__(self, args, output_size, build_bias, bias_initializer=None, kernel_initializer=None):
        self._build_bias = build_bias
        if args is None or (nest.is_nested(args) and not args):
            raise ValueError("`args` must be specified")
        if not nest.is_nested(args):
            args = [args]
            self._is_sequence = False
        else:
            self._is_sequence = True
        total_arg_size = 0
        shapes = [a.get_shape() for a in args]
        for shape in shapes:
            if shape.ndims != 2:
                raise ValueError("linear is expecting 2D arguments: %s" % shapes)
            if _static_width(shape) is None:
                raise ValueError("linear expects shape[1] to be provided for shape %s, "
                                 "but saw %s" % (shape, shape[1]))
            total_arg_size += _static_width(shape)
        dtype = [a.dtype for a in args][0]
        scope = vs.get_variable_scope()
        with vs.variable_scope(scope) as outer_scope:
            self._weights = vs.get_variable(_WEIGHTS_VARIABLE_NAME, [total_arg_size, output_size], dtype=dtype,
                                            initializer=kernel_initializer)
            if build_bias:
                with vs.variable_scope(outer_scope) as inner_scope:
                    inner_scope.set_partitioner(None)
                    if bias_initializer is None:
                        bias_initializer = init_ops.constant_initializer(0.0, dtype=dtype)
                    self._biases = vs.get_variable(_BIAS_VARIABLE_NAME, [output_size], dtype=dtype,
                                                   initializer=bias_initializer)

    def __call__(self, args):
        if not self._is_sequence:
            args = [args]
        if len(args) == 1:
            res = math_ops.matmul(args[0], self._weights)
        else:
            one = constant_op.constant(1, dtype=dtypes.int32)
            res = math_ops.matmul(array_ops.concat(args, one), self._weights)
        if self._build_bias:
            res = nn_ops.bias_add(res, self._biases)
        return res


class EmbeddingWrapper(RNNCell):
    """Operator adding input embedding to the given cell (TF 1.15's tf.contrib.rnn.EmbeddingWrapper)."""

    def __init__(self, cell, embedding_classes, embedding_size, initializer=None, reuse=None):
        super().__init__(_reuse=reuse)
        _impl.assert_like_rnncell("cell", cell)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError("Both embedding_classes and embedding_size must be > 0: "
                             "%d, %d." % (embedding_classes, embedding_size))
        self._cell = cell
        self._embedding_classes = embedding_classes
        self._embedding_size = embedding_size
        self._initializer = initializer

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._cell.output_size

    def zero_state(self, batch_size, dtype):
        with ops.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            return self._cell.zero_state(batch_size, dtype)

    def call(self, inputs, state):
        """Run the cell on embedded inputs."""
        with ops.device("/cpu:0"):
            if self._initializer:
                initializer = self._initializer
            elif vs.get_variable_scope().initializer:
                initializer = vs.get_variable_scope().initializer
            else:
                # Default initializer for embeddings should have variance=1.
                sqrt3 = math.sqrt(3)  # Uniform(-sqrt(3), sqrt(3)) has variance=1.
                initializer = init_ops.random_uniform_initializer(-sqrt3, sqrt3)
            data_type = state[0].dtype if isinstance(state, tuple) else state.dtype
            embedding = vs.get_variable("embedding", [self._embedding_classes, self._embedding_size],
                                        initializer=initializer, dtype=data_type)
            embedded = embedding_ops.embedding_lookup(embedding, array_ops.reshape(inputs, [-1]))
            return self._cell(embedded, state)


class InputProjectionWrapper(RNNCell):
    """Operator adding an input projection to the given cell (TF 1.15's tf.contrib.rnn.InputProjectionWrapper)."""

    def __init__(self, cell, num_proj, activation=None, input_size=None, reuse=None):
        super().__init__(_reuse=reuse)
        if input_size is not None:
            logging.warning("%s: The input_size parameter is deprecated.", self)
        _impl.assert_like_rnncell("cell", cell)
        self._cell = cell
        self._num_proj = num_proj
        self._activation = activation
        self._linear = None

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._cell.output_size

    def zero_state(self, batch_size, dtype):
        with ops.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            return self._cell.zero_state(batch_size, dtype)

    def call(self, inputs, state):
        """Run the input projection and then the cell."""
        if self._linear is None:
            self._linear = _Linear(inputs, self._num_proj, True)
        projected = self._linear(inputs)
        if self._activation:
            projected = self._activation(projected)
        return self._cell(projected, state)


class OutputProjectionWrapper(RNNCell):
    """Operator adding an output projection to the given cell (TF 1.15's tf.contrib.rnn.OutputProjectionWrapper)."""

    def __init__(self, cell, output_size, activation=None, reuse=None):
        super().__init__(_reuse=reuse)
        _impl.assert_like_rnncell("cell", cell)
        if output_size < 1:
            raise ValueError("Parameter output_size must be > 0: %d." % output_size)
        self._cell = cell
        self._output_size = output_size
        self._activation = activation
        self._linear = None

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._output_size

    def zero_state(self, batch_size, dtype):
        with ops.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            return self._cell.zero_state(batch_size, dtype)

    def call(self, inputs, state):
        """Run the cell and output projection on inputs, starting from state."""
        output, res_state = self._cell(inputs, state)
        if self._linear is None:
            self._linear = _Linear(output, self._output_size, True)
        projected = self._linear(output)
        if self._activation:
            projected = self._activation(projected)
        return projected, res_state
