"""TF 1.x's RNN cells: `tf.nn.rnn_cell.*` and `tf.contrib.rnn`'s cells and wrappers.

The cells are TensorFlow's own: TF 2.21 still ships TF 1.x's rnn_cell_impl (as
tensorflow/python/keras/layers/legacy_rnn/rnn_cell_impl.py, re-exported by
tensorflow/python/ops/rnn_cell_impl.py, both importable with Keras 3); only the public
`tf.compat.v1.nn.rnn_cell` names load it through Keras 2 (tf_keras) and raise "`LSTMCell` is not
available with Keras 3". Re-exported here, they keep TF 1.x's variable names
(`rnn/multi_rnn_cell/cell_0/lstm_cell/kernel`), initialisers and arithmetic, in graph mode, with
`tf.compat.v1.nn.dynamic_rnn`/`static_rnn` and in a model_fn under the bridge.

tf.contrib.rnn's `EmbeddingWrapper`, `InputProjectionWrapper` and `OutputProjectionWrapper` have no
TF 2 counterpart with the same variables; they are implemented below as RNNCells creating what TF 1.x
programs saved (`<scope>/input_projection_wrapper/kernel`, `.../bias`, `.../embedding_wrapper/embedding`),
so their checkpoints load. Oracle fixture tests/migrate/fixtures/contrib/rnn_cells.
"""

from __future__ import annotations

import math

import tensorflow as tf
from tensorflow.python.ops import rnn_cell_impl as _impl

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


class _CellWrapper(RNNCell):
    """An RNNCell around another cell, with its state size and zero state (output size too unless changed)."""

    def __init__(self, cell, reuse=None):
        super().__init__(_reuse=reuse)
        _impl.assert_like_rnncell("cell", cell)
        self._cell = cell

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._cell.output_size

    def zero_state(self, batch_size, dtype):
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)


class _Projection:
    """`concat(inputs) @ kernel + bias`, its `kernel` [width, units] (the scope's initializer and partitioner)
    and zero `bias` [units] (never partitioned) made in the current variable scope on the first call."""

    def __init__(self, units):
        self._units = units
        self._variables = None

    def __call__(self, inputs):
        inputs = tf.nest.flatten(inputs)
        widths = [_static_width(x.get_shape()) for x in inputs]
        if None in widths:
            raise ValueError(f"a projection needs 2-D inputs of known width: {[x.get_shape() for x in inputs]}")
        if self._variables is None:
            dtype = inputs[0].dtype
            kernel = tf.compat.v1.get_variable("kernel", [sum(widths), self._units], dtype=dtype)
            with tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope()) as scope:
                scope.set_partitioner(None)
                bias = tf.compat.v1.get_variable("bias", [self._units], dtype=dtype,
                                                 initializer=tf.compat.v1.constant_initializer(0.0, dtype=dtype))
            self._variables = kernel, bias
        kernel, bias = self._variables
        stacked = inputs[0] if len(inputs) == 1 else tf.concat(inputs, 1)
        return tf.nn.bias_add(tf.matmul(stacked, kernel), bias)


def _static_width(shape) -> int | None:
    return tf.compat.dimension_value(shape[1]) if shape.ndims == 2 else None


class EmbeddingWrapper(_CellWrapper):
    """Feeds the cell the embeddings of integer inputs: an `embedding` [embedding_classes, embedding_size]
    variable (it and the cell on the CPU), initialised by `initializer`, else the scope's, else uniformly in +-sqrt(3) (variance
    1), in the dtype of the state."""

    def __init__(self, cell, embedding_classes, embedding_size, initializer=None, reuse=None):
        super().__init__(cell, reuse)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError(f"Both embedding_classes and embedding_size must be > 0: "
                             f"{embedding_classes}, {embedding_size}.")
        self._embedding_shape = [embedding_classes, embedding_size]
        self._initializer = initializer

    def call(self, inputs, state):
        with tf.device("/cpu:0"):
            sqrt3 = math.sqrt(3)
            initializer = (self._initializer or tf.compat.v1.get_variable_scope().initializer
                           or tf.compat.v1.random_uniform_initializer(-sqrt3, sqrt3))
            embedding = tf.compat.v1.get_variable("embedding", self._embedding_shape, initializer=initializer,
                                                  dtype=tf.nest.flatten(state)[0].dtype)
            embedded = tf.compat.v1.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1]))
            return self._cell(embedded, state)  # on the CPU too, as in TF 1.x


class InputProjectionWrapper(_CellWrapper):
    """Feeds the cell `activation(inputs @ kernel + bias)`, num_proj wide (`input_size` is ignored)."""

    def __init__(self, cell, num_proj, activation=None, input_size=None, reuse=None):
        super().__init__(cell, reuse)
        if input_size is not None:
            tf.compat.v1.logging.warning("%s: The input_size parameter is deprecated.", self)
        self._projection = _Projection(num_proj)
        self._activation = activation

    def call(self, inputs, state):
        projected = self._projection(inputs)
        return self._cell(self._activation(projected) if self._activation else projected, state)


class OutputProjectionWrapper(_CellWrapper):
    """Returns `activation(output @ kernel + bias)`, output_size wide, as the cell's output."""

    def __init__(self, cell, output_size, activation=None, reuse=None):
        super().__init__(cell, reuse)
        if output_size < 1:
            raise ValueError(f"Parameter output_size must be > 0: {output_size}.")
        self._output_size = output_size
        self._projection = _Projection(output_size)
        self._activation = activation

    @property
    def output_size(self):
        return self._output_size

    def call(self, inputs, state):
        output, new_state = self._cell(inputs, state)
        projected = self._projection(output)
        return (self._activation(projected) if self._activation else projected), new_state
