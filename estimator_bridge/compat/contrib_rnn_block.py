"""tf.contrib.rnn's fused cells on TF 2.21's own kernels: LSTMBlockCell, LSTMBlockFusedCell, GRUBlockCell(V2).

TensorFlow 2 dropped these classes but kept their kernels in core: `tf.raw_ops.LSTMBlockCell` (one LSTM
step), `BlockLSTM` (a whole sequence, gradient registered by TF) and `GRUBlockCell`. The classes here run
those kernels, so outputs are the kernels' own numbers, and create the variables TF 1.x programs (tensorpack,
magenta, planet, scalable_agent) saved: `lstm_cell/{kernel,bias,w_i_diag,w_f_diag,w_o_diag}`,
`lstm_fused_cell/{kernel,bias}`, `gru_cell/{w_ru,b_ru,w_c,b_c}` (V2: `gates/...`, `candidate/...`), with
the same shapes and gate layout, so their checkpoints load. TF 2.21 registers no gradient for the two
single-step kernels; the ones below come from their `...Grad` kernels (once per process).
Oracle fixture tests/migrate/fixtures/contrib/rnn_block_cells.
"""

from __future__ import annotations

import abc

import tensorflow as tf
from tensorflow.python.framework import ops
from tensorflow.python.keras.engine import input_spec
from tensorflow.python.keras.legacy_tf_layers import base as legacy_layer

from estimator_bridge.compat.rnn_cell import LayerRNNCell, LSTMStateTuple

__all__ = ["LSTMBlockCell", "LSTMBlockWrapper", "LSTMBlockFusedCell", "GRUBlockCell", "GRUBlockCellV2"]


def _register_gradient(op_type):
    """Register `function` as op_type's gradient unless one is registered already (module imported twice)."""
    def register(function):
        try:
            ops.RegisterGradient(op_type)(function)
        except KeyError:
            pass
        return function
    return register


def _matmul_grads(inputs, d_preactivation):
    """Gradients of `concat(inputs, 1) @ w + b` w.r.t. w and b, given the gradient of the result."""
    return (tf.matmul(tf.concat(inputs, 1), d_preactivation, transpose_a=True),
            tf.raw_ops.BiasAddGrad(out_backprop=d_preactivation))


@_register_gradient("LSTMBlockCell")
def _lstm_block_cell_grad(op, *grads):
    """x, cs_prev, h_prev, w, wci, wcf, wco, b gradients from LSTMBlockCellGrad's gate gradients."""
    x, cs_prev, h_prev, w, wci, wcf, wco, b = op.inputs
    i, cs, f, o, ci, co, _ = op.outputs
    cs_prev_grad, d_gates, wci_grad, wcf_grad, wco_grad = tf.raw_ops.LSTMBlockCellGrad(
        x=x, cs_prev=cs_prev, h_prev=h_prev, w=w, wci=wci, wcf=wcf, wco=wco, b=b, i=i, cs=cs, f=f, o=o,
        ci=ci, co=co, cs_grad=grads[1], h_grad=grads[6], use_peephole=op.get_attr("use_peephole"))
    x_grad, h_prev_grad = tf.split(tf.matmul(d_gates, w, transpose_b=True), [tf.shape(x)[1], -1], axis=1)
    w_grad, b_grad = _matmul_grads([x, h_prev], d_gates)
    return x_grad, cs_prev_grad, h_prev_grad, w_grad, wci_grad, wcf_grad, wco_grad, b_grad


@_register_gradient("GRUBlockCell")
def _gru_block_cell_grad(op, *grads):
    """x, h_prev, w_ru, w_c, b_ru, b_c gradients from GRUBlockCellGrad's gate gradients."""
    x, h_prev, w_ru, w_c, b_ru, b_c = op.inputs
    r, u, c, _ = op.outputs
    d_x, d_h_prev, d_c_bar, d_r_bar_u_bar = tf.raw_ops.GRUBlockCellGrad(
        x=x, h_prev=h_prev, w_ru=w_ru, w_c=w_c, b_ru=b_ru, b_c=b_c, r=r, u=u, c=c, d_h=grads[3])
    d_w_ru, d_b_ru = _matmul_grads([x, h_prev], d_r_bar_u_bar)
    d_w_c, d_b_c = _matmul_grads([x, h_prev * r], d_c_bar)
    return d_x, d_h_prev, d_w_ru, d_w_c, d_b_ru, d_b_c


def _static_size(shape, axis, what):
    size = tf.compat.dimension_value(shape[axis])
    if not size:
        raise ValueError(f"Expecting {what} (dimension {axis}) to be set: {shape}")
    return size


class _LSTMWeights:
    """Creates an LSTM's `kernel` [input + units, 4 * units] (gates i, c, f, o), zero `bias` and, with
    peepholes, `w_i_diag`/`w_f_diag`/`w_o_diag`; returns the kernels' peephole arguments (zeros without)."""

    def _build_lstm(self, input_size):
        units = self._num_units
        self._kernel = self.add_weight("kernel", [input_size + units, 4 * units])
        self._bias = self.add_weight("bias", [4 * units], initializer=tf.compat.v1.zeros_initializer())
        if self._use_peephole:
            self._peepholes = [self.add_weight(name, [units]) for name in ("w_i_diag", "w_f_diag", "w_o_diag")]
        self.built = True

    def _peephole_weights(self, dtype):
        if self._use_peephole:
            return self._peepholes
        return [tf.zeros([self._num_units], dtype=dtype)] * 3


class LSTMBlockCell(_LSTMWeights, LayerRNNCell):
    """An LSTM cell (state `LSTMStateTuple(c, h)`) computed by one LSTMBlockCell kernel per step.

    forget_bias is added to the forget gate; cell_clip (None: no clipping) bounds the cell state;
    use_peephole adds diagonal peephole connections. Variables are named as tf.nn.rnn_cell.LSTMCell's.
    """

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False, dtype=None, reuse=None,
                 name="lstm_cell"):
        super().__init__(_reuse=reuse, dtype=dtype, name=name)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = -1 if cell_clip is None else cell_clip
        self._use_peephole = use_peephole
        self.input_spec = input_spec.InputSpec(ndim=2)

    @property
    def state_size(self):
        return LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        self._build_lstm(_static_size(inputs_shape, 1, "the input size"))

    def call(self, inputs, state):
        if len(state) != 2:
            raise ValueError("Expecting state to be a tuple with length 2.")
        cs_prev, h_prev = state
        wci, wcf, wco = self._peephole_weights(self.dtype)
        _, cs, _, _, _, _, h = tf.raw_ops.LSTMBlockCell(
            x=inputs, cs_prev=cs_prev, h_prev=h_prev, w=self._kernel, wci=wci, wcf=wcf, wco=wco, b=self._bias,
            forget_bias=self._forget_bias, cell_clip=self._cell_clip, use_peephole=self._use_peephole)
        return h, LSTMStateTuple(cs, h)


class LSTMBlockWrapper(legacy_layer.Layer, metaclass=abc.ABCMeta):
    """A layer running an LSTM over a whole time-major sequence `[time, batch, input]` (or a list of
    `[batch, input]` steps): subclasses give `num_units` and `_call_cell`, which returns every step's cell
    states and outputs; this class supplies the zero initial state, masks outputs past `sequence_length`
    to zero and returns each sequence's state at its own last step as the final `LSTMStateTuple`."""

    @property
    @abc.abstractmethod
    def num_units(self):
        """Number of units (output dimension)."""

    @abc.abstractmethod
    def _call_cell(self, inputs, initial_cell_state, initial_output, dtype, sequence_length):
        """(cell states, outputs), each [time, batch, num_units], of the LSTM run from the given state."""

    def call(self, inputs, initial_state=None, dtype=None, sequence_length=None):
        is_list = isinstance(inputs, list)
        if is_list:
            inputs = tf.stack(inputs)
        shape = inputs.get_shape().with_rank(3)
        _static_size(shape, 2, "the input size")
        time_len = tf.compat.dimension_value(shape[0]) or tf.shape(inputs)[0]
        batch_size = tf.compat.dimension_value(shape[1]) or tf.shape(inputs)[1]
        if initial_state is None:
            if dtype is None:
                raise ValueError("Either initial_state or dtype needs to be specified")
            zeros = tf.zeros(tf.stack([batch_size, self.num_units]), dtype=dtype)
            initial_state = zeros, zeros
        elif len(initial_state) != 2:
            raise ValueError("Expecting initial_state to be a tuple with length 2 or None")
        dtype = dtype or initial_state[0].dtype
        initial_cell_state, initial_output = initial_state
        if sequence_length is not None:
            sequence_length = tf.convert_to_tensor(sequence_length)
        cell_states, outputs = self._call_cell(inputs, initial_cell_state, initial_output, dtype, sequence_length)
        if sequence_length is None:
            final_state = LSTMStateTuple(cell_states[-1], outputs[-1])
        else:
            mask = tf.transpose(tf.sequence_mask(sequence_length, time_len, dtype=dtype))
            outputs *= tf.expand_dims(mask, -1)
            # Step `length` of [initial state, step 0, step 1, ...] is the state after a sequence's last step.
            last = tf.stack([sequence_length, tf.range(batch_size, dtype=sequence_length.dtype)], axis=1)
            final_state = LSTMStateTuple(*(tf.gather_nd(tf.concat([initial[None], steps], 0), last) for initial, steps
                                           in ((initial_cell_state, cell_states), (initial_output, outputs))))
        return (tf.unstack(outputs) if is_list else outputs), final_state


class LSTMBlockFusedCell(_LSTMWeights, LSTMBlockWrapper):
    """An LSTM over a whole time-major sequence in one BlockLSTM kernel (variables `lstm_fused_cell/kernel`,
    `bias`, optional peepholes); arguments as LSTMBlockCell's. Called as
    `cell(inputs, initial_state=None, dtype=None, sequence_length=None) -> (outputs, (c, h))`."""

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False, reuse=None, dtype=None,
                 name="lstm_fused_cell"):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = -1 if cell_clip is None else cell_clip
        self._use_peephole = use_peephole
        self.input_spec = input_spec.InputSpec(ndim=3)

    @property
    def num_units(self):
        return self._num_units

    def build(self, input_shape):
        self._build_lstm(tf.compat.dimension_value(input_shape[2]))

    def _call_cell(self, inputs, initial_cell_state=None, initial_output=None, dtype=None, sequence_length=None):
        if sequence_length is None:
            steps = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
        else:
            steps = tf.reduce_max(sequence_length)
        wci, wcf, wco = self._peephole_weights(dtype)
        _, cs, _, _, _, _, h = tf.raw_ops.BlockLSTM(
            seq_len_max=tf.cast(steps, tf.int64), x=inputs, cs_prev=initial_cell_state, h_prev=initial_output,
            w=self._kernel, wci=wci, wcf=wcf, wco=wco, b=self._bias, forget_bias=self._forget_bias,
            cell_clip=self._cell_clip, use_peephole=self._use_peephole)
        return cs, h


class GRUBlockCell(LayerRNNCell):
    """A GRU cell computed by one GRUBlockCell kernel per step, variables `w_ru` [input + units, 2 * units]
    (reset and update gates), `b_ru` (ones), `w_c` [input + units, units] and `b_c` (zeros).
    `cell_size` is the old name of num_units."""

    _variable_names = ("w_ru", "b_ru", "w_c", "b_c")

    def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
        super().__init__(_reuse=reuse, name=name)
        if (cell_size is None) == (num_units is None):
            raise ValueError("Exactly one of num_units or cell_size must be provided.")
        self._cell_size = num_units if cell_size is None else cell_size
        self.input_spec = input_spec.InputSpec(ndim=2)

    @property
    def state_size(self):
        return self._cell_size

    @property
    def output_size(self):
        return self._cell_size

    def build(self, input_shape):
        rows, units = _static_size(input_shape, 1, "the input size") + self._cell_size, self._cell_size
        w_ru, b_ru, w_c, b_c = self._variable_names
        self._gate_kernel = self.add_weight(w_ru, [rows, 2 * units])
        self._gate_bias = self.add_weight(b_ru, [2 * units], initializer=tf.compat.v1.ones_initializer())
        self._candidate_kernel = self.add_weight(w_c, [rows, units])
        self._candidate_bias = self.add_weight(b_c, [units], initializer=tf.compat.v1.zeros_initializer())
        self.built = True

    def call(self, inputs, h_prev):
        cell_size = h_prev.get_shape().with_rank(2)[1]
        if cell_size != self._cell_size:
            raise ValueError(f"Shape of h_prev[1] incorrect: cell_size {self._cell_size} vs {cell_size}")
        *_, new_h = tf.raw_ops.GRUBlockCell(x=inputs, h_prev=h_prev, w_ru=self._gate_kernel,
                                            w_c=self._candidate_kernel, b_ru=self._gate_bias,
                                            b_c=self._candidate_bias)
        return new_h, new_h


class GRUBlockCellV2(GRUBlockCell):
    """GRUBlockCell with tf.nn.rnn_cell.GRUCell's variable names (`gates/kernel`, `gates/bias`,
    `candidate/kernel`, `candidate/bias`)."""

    _variable_names = ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias")
