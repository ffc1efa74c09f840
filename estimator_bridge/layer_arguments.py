"""TF 1.15's reading of `tf.layers` arguments given by name: activations, initializers, ...

TF 1.15's `tf.layers` were Keras-1 layers: every activation, initializer, regularizer and
constraint argument went through `keras.activations.get`, `keras.initializers.get`,
`keras.regularizers.get`, `keras.constraints.get`, so `conv2d(x, 32, 3, activation="relu",
kernel_initializer="he_normal", kernel_regularizer="l2", kernel_constraint="max_norm")` and
config dicts (`{"class_name": "VarianceScaling", "config": {"scale": 2.0}}`) were valid. Keras 3's
objects of the same names differ (Keras 3 initializers draw from their own seed generators, not
from TF1 graph seeds; `hard_sigmoid` and `softmax` changed formulas), so this module rebuilds TF
1.15's: the initializers are TF's v1 `init_ops` classes with the Keras-1 defaults (graph-seeded,
as TF1 drew them), the activations, regularizers and constraints are TF 1.15's formulas op for
op. The tables below are what TF 1.15 accepted (read from its Keras modules); `resolve_*` are the
`get` functions. Callables pass through unchanged, None stays None, anything else is an error
naming the argument and the accepted names.
"""

from __future__ import annotations

import functools

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import init_ops as _init_ops

_EPSILON = 1e-7  # keras.backend.epsilon() of TF 1.15


# ----------------------------------------------------------------------------- activations
# keras/activations.py of TF 1.15 (through keras/backend.py where it delegated).

def _softmax(x, axis=-1):
    rank = x.shape.rank
    if rank == 2:
        return tf.nn.softmax(x)
    if rank is not None and rank > 2:
        e = tf.exp(x - tf.reduce_max(x, axis=axis, keepdims=True))
        s = tf.reduce_sum(e, axis=axis, keepdims=True)
        return e / s
    raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")


def _elu(x, alpha=1.0):
    res = tf.nn.elu(x)
    return res if alpha == 1 else tf.where(x > 0, res, alpha * res)


def _selu(x):
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return scale * _elu(x, alpha)


def _hard_sigmoid(x):
    x = tf.multiply(x, tf.constant(0.2, x.dtype.base_dtype))
    x = tf.add(x, tf.constant(0.5, x.dtype.base_dtype))
    return tf.clip_by_value(x, 0.0, 1.0)


def _linear(x):
    return x


ACTIVATIONS = {
    "softmax": _softmax,
    "elu": _elu,
    "selu": _selu,
    "softplus": tf.nn.softplus,
    "softsign": tf.nn.softsign,
    "relu": tf.nn.relu,  # K.relu with its defaults is nn.relu
    "tanh": tf.nn.tanh,
    "sigmoid": tf.nn.sigmoid,
    "exponential": tf.exp,
    "hard_sigmoid": _hard_sigmoid,
    "linear": _linear,
}


# ----------------------------------------------------------------------------- initializers
# keras/initializers.py of TF 1.15 in graph mode: TF's v1 init_ops classes; Keras-1's own
# RandomUniform/RandomNormal/TruncatedNormal only change the defaults (+-0.05, stddev 0.05).

_KERAS_UNIFORM = functools.partial(_init_ops.RandomUniform, -0.05, 0.05)
_KERAS_NORMAL = functools.partial(_init_ops.RandomNormal, 0.0, 0.05)
_KERAS_TRUNCATED = functools.partial(_init_ops.TruncatedNormal, 0.0, 0.05)


def _keras_random(factory, names):
    def build(**config):
        positional = dict(zip(names, factory.args))
        positional.update(config)
        return factory.func(**positional)
    return build


INITIALIZERS = {
    **dict.fromkeys(("Zeros", "zeros", "zero"), _init_ops.Zeros),
    **dict.fromkeys(("Ones", "ones", "one"), _init_ops.Ones),
    **dict.fromkeys(("Constant", "constant"), _init_ops.Constant),
    **dict.fromkeys(("RandomUniform", "uniform", "random_uniform"),
                    _keras_random(_KERAS_UNIFORM, ("minval", "maxval"))),
    **dict.fromkeys(("RandomNormal", "normal", "random_normal"),
                    _keras_random(_KERAS_NORMAL, ("mean", "stddev"))),
    **dict.fromkeys(("TruncatedNormal", "truncated_normal"),
                    _keras_random(_KERAS_TRUNCATED, ("mean", "stddev"))),
    "TFRandomUniform": _init_ops.RandomUniform,
    "TFRandomNormal": _init_ops.RandomNormal,
    "TFTruncatedNormal": _init_ops.TruncatedNormal,
    **dict.fromkeys(("Identity", "identity"), _init_ops.Identity),
    **dict.fromkeys(("Orthogonal", "orthogonal"), _init_ops.Orthogonal),
    **dict.fromkeys(("GlorotNormal", "glorot_normal"), _init_ops.GlorotNormal),
    **dict.fromkeys(("GlorotUniform", "glorot_uniform"), _init_ops.GlorotUniform),
    "VarianceScaling": _init_ops.VarianceScaling,
    "he_normal": _init_ops.he_normal,
    "he_uniform": _init_ops.he_uniform,
    "lecun_normal": _init_ops.lecun_normal,
    "lecun_uniform": _init_ops.lecun_uniform,
}


# ----------------------------------------------------------------------------- regularizers
# keras/regularizers.py of TF 1.15.

class L1L2:
    """Keras-1 `L1L2`: `l1 * sum(|x|) + l2 * sum(x**2)` (factors cast to float32 first)."""

    def __init__(self, l1=0.0, l2=0.0):  # noqa: E741 (TF1's parameter names)
        self.l1 = np.asarray(l1, dtype=np.float32)
        self.l2 = np.asarray(l2, dtype=np.float32)

    def __call__(self, x):
        if not self.l1 and not self.l2:
            return tf.constant(0.0)
        regularization = 0.0
        if self.l1:
            regularization += self.l1 * tf.reduce_sum(tf.abs(x))
        if self.l2:
            regularization += self.l2 * tf.reduce_sum(tf.square(x))
        return regularization

    def get_config(self):
        return {"l1": float(self.l1), "l2": float(self.l2)}


REGULARIZERS = {
    "L1L2": L1L2,
    "l1": lambda l=0.01: L1L2(l1=l),  # noqa: E741
    "l2": lambda l=0.01: L1L2(l2=l),  # noqa: E741
    "l1_l2": lambda l1=0.01, l2=0.01: L1L2(l1=l1, l2=l2),
}


# ----------------------------------------------------------------------------- constraints
# keras/constraints.py of TF 1.15 (K.sqrt clips at 0 first; K.clip as in keras/backend.py).

def _sqrt(x):
    return tf.sqrt(tf.clip_by_value(x, tf.constant(0.0, x.dtype.base_dtype),
                                    tf.constant(np.inf, x.dtype.base_dtype)))


def _clip(x, min_value, max_value):
    if max_value is not None and max_value < min_value:
        max_value = min_value
    if max_value is None:
        max_value = np.inf
    return tf.clip_by_value(x, tf.constant(min_value, x.dtype.base_dtype),
                            tf.constant(max_value, x.dtype.base_dtype))


def _norms(w, axis):
    return _sqrt(tf.reduce_sum(tf.square(w), axis=axis, keepdims=True))


class MaxNorm:
    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = _clip(norms, 0, self.max_value)
        return w * (desired / (_EPSILON + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg:
    def __call__(self, w):
        return w * tf.cast(tf.greater_equal(w, 0.0), tf.float32)

    def get_config(self):
        return {}


class UnitNorm:
    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (_EPSILON + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm:
    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = (self.rate * _clip(norms, self.min_value, self.max_value)
                   + (1 - self.rate) * norms)
        return w * (desired / (_EPSILON + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


class RadialConstraint:
    """Keras-1 RadialConstraint: each 2-D kernel becomes radially symmetric (rank-4 weights)."""

    def __call__(self, w):
        shape = w.shape
        if shape.rank is None or shape.rank != 4:
            raise ValueError(f"The weight tensor must be of rank 4, but is of shape: {shape}")
        height, width, channels, kernels = shape.as_list()
        w = tf.reshape(w, (height, width, channels * kernels))
        w = tf.map_fn(self._kernel_constraint, tf.stack(tf.unstack(w, axis=-1), axis=0))
        return tf.reshape(tf.stack(tf.unstack(w, axis=0), axis=-1),
                          (height, width, channels, kernels))

    @staticmethod
    def _kernel_constraint(kernel):
        padding = tf.constant([[1, 1], [1, 1]], dtype="int32")
        kernel_shape = tf.shape(kernel)[0]
        start = tf.cast(kernel_shape / 2, "int32")
        odd = tf.cast(tf.math.floormod(kernel_shape, 2), "bool")
        kernel_new = tf.cond(
            odd, lambda: kernel[start - 1:start, start - 1:start],
            lambda: kernel[start - 1:start, start - 1:start] + tf.zeros((2, 2), kernel.dtype))
        index = tf.cond(odd, lambda: tf.constant(0, dtype="int32"),
                        lambda: tf.constant(1, dtype="int32"))

        def body(i, array):
            return i + 1, tf.pad(array, padding, constant_values=kernel[start + i, start + i])

        _, kernel_new = tf.compat.v1.while_loop(
            lambda i, *_: tf.less(i, start), body, [index, kernel_new],
            shape_invariants=[index.get_shape(), tf.TensorShape([None, None])])
        return kernel_new

    def get_config(self):
        return {}


CONSTRAINTS = {
    **dict.fromkeys(("MaxNorm", "max_norm", "maxnorm"), MaxNorm),
    **dict.fromkeys(("NonNeg", "non_neg", "nonneg"), NonNeg),
    **dict.fromkeys(("UnitNorm", "unit_norm", "unitnorm"), UnitNorm),
    **dict.fromkeys(("MinMaxNorm", "min_max_norm"), MinMaxNorm),
    **dict.fromkeys(("RadialConstraint", "radial_constraint"), RadialConstraint),
}


# ----------------------------------------------------------------------------- get


def _unknown(kind, argument, identifier, table):
    return ValueError(
        f"{argument}={identifier!r}: unknown {kind}. TF 1.15's tf.layers accepted a callable, "
        f"None, or one of the names {sorted(table)} (or a {{'class_name': name, 'config': "
        "{...}} dict for initializers, regularizers and constraints).")


def _from_table(kind, argument, identifier, table, allow_dict=True):
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, bytes):
        identifier = identifier.decode("utf-8")
    if isinstance(identifier, str):
        factory, config = table.get(identifier), {}
    elif allow_dict and isinstance(identifier, dict) and "class_name" in identifier:
        factory, config = table.get(identifier["class_name"]), dict(identifier.get("config") or {})
    else:
        raise ValueError(f"{argument}: could not interpret {kind} identifier {identifier!r} "
                         f"({type(identifier).__name__}); pass a callable, None or a name "
                         f"such as {sorted(table)[:4]}.")
    if factory is None:
        raise _unknown(kind, argument, identifier, table)
    return factory(**config)


def resolve_activation(identifier, argument="activation"):
    """keras.activations.get of TF 1.15 (None stays None: the layer then applies nothing)."""
    if isinstance(identifier, (str, bytes)):
        name = identifier.decode("utf-8") if isinstance(identifier, bytes) else identifier
        if name not in ACTIVATIONS:
            raise _unknown("activation", argument, identifier, ACTIVATIONS)
        return ACTIVATIONS[name]
    if identifier is None or callable(identifier):
        return identifier
    raise ValueError(f"{argument}: could not interpret activation function identifier "
                     f"{identifier!r}; pass a callable, None or one of {sorted(ACTIVATIONS)}.")


def resolve_initializer(identifier, argument="initializer"):
    return _from_table("initializer", argument, identifier, INITIALIZERS)


def resolve_regularizer(identifier, argument="regularizer"):
    return _from_table("regularizer", argument, identifier, REGULARIZERS)


def resolve_constraint(identifier, argument="constraint"):
    return _from_table("constraint", argument, identifier, CONSTRAINTS)


# Which `tf.layers` parameter is read by which `get` (by its name's ending).
_RESOLVERS = (("activation", resolve_activation), ("_initializer", resolve_initializer),
              ("_regularizer", resolve_regularizer), ("_constraint", resolve_constraint))


def resolve(arguments: dict) -> dict:
    """The layer arguments with every name/dict form resolved as TF 1.15's Keras-1 layers did."""
    resolved = dict(arguments)
    for name, value in arguments.items():
        if value is None or callable(value):
            continue
        for ending, resolver in _RESOLVERS:
            if name == ending or (ending.startswith("_") and name.endswith(ending)):
                resolved[name] = resolver(value, name)
                break
    return resolved
