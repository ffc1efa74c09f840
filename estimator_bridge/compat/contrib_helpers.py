"""The few `tf.contrib` helpers legacy TPU code relies on, rewritten on current TensorFlow.

Each keeps the TF 1.15 contrib signature and arithmetic (same formulas, same op order, same
variable names), so a script using them computes what it computed on TF 1.15:
`batch_and_drop_remainder`, `padded_batch_and_drop_remainder` (tf.contrib.data),
`xavier_initializer`, `variance_scaling_initializer`, `l1_regularizer`, `l2_regularizer`,
`layer_norm` (tf.contrib.layers), `HParams` (tf.contrib.training), `get_name_scope`
and `filter_variables` (tf.contrib.framework).
"""

from __future__ import annotations

import json
import math
import numbers
import re

import tensorflow as tf

from estimator_bridge.compat.contrib_arg_scope import add_arg_scope

tf1 = tf.compat.v1

# ----------------------------------------------------------------------------- tf.contrib.data


def batch_and_drop_remainder(batch_size):
    """`dataset.apply(batch_and_drop_remainder(n))` == `dataset.batch(n, drop_remainder=True)`."""
    def apply_fn(dataset):
        return dataset.batch(batch_size, drop_remainder=True)
    return apply_fn


def padded_batch_and_drop_remainder(batch_size, padded_shapes, padding_values=None):
    """`padded_batch(n, shapes, values, drop_remainder=True)` as a `Dataset.apply` function."""
    def apply_fn(dataset):
        return dataset.padded_batch(batch_size, padded_shapes=padded_shapes,
                                    padding_values=padding_values, drop_remainder=True)
    return apply_fn


# ----------------------------------------------------------------------------- initializers


def variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None,
                                 dtype=tf.float32):
    """tf.contrib.layers' variance scaling (not tf.compat.v1's: the normal case differs).

    n is fan_in, fan_out or their mean (conv kernels multiply both by the receptive field);
    uniform draws from [-sqrt(3 factor / n), +sqrt(3 factor / n)], normal from a truncated normal
    with stddev sqrt(1.3 factor / n).
    """
    dtype = tf.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"Cannot create initializer for non-floating point type {dtype.name}.")
    if mode not in ("FAN_IN", "FAN_OUT", "FAN_AVG"):
        raise TypeError(f"Unknown mode {mode!r}: expected one of FAN_IN, FAN_OUT, FAN_AVG")

    def initializer(shape, dtype=dtype, partition_info=None):
        dtype = tf.as_dtype(dtype)
        if not dtype.is_floating:
            raise TypeError(f"Cannot create initializer for non-floating point type {dtype.name}.")
        shape = [int(dim) for dim in shape]
        if shape:
            fan_in = float(shape[-2]) if len(shape) > 1 else float(shape[-1])
            fan_out = float(shape[-1])
        else:
            fan_in = fan_out = 1.0
        for dim in shape[:-2]:
            fan_in *= float(dim)
            fan_out *= float(dim)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return tf1.random_uniform(shape, -limit, limit, dtype, seed=seed)
        return tf1.truncated_normal(shape, 0.0, math.sqrt(1.3 * factor / n), dtype, seed=seed)

    return initializer


def xavier_initializer(uniform=True, seed=None, dtype=tf.float32):
    """Glorot/Xavier: `variance_scaling_initializer(1.0, 'FAN_AVG', uniform)`."""
    return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed,
                                        dtype=dtype)


# ----------------------------------------------------------------------------- regularizers


def _checked_scale(scale):
    if isinstance(scale, numbers.Integral):
        raise ValueError(f"scale cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real) and scale < 0.0:
        raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale:g}.")
    return scale


def l1_regularizer(scale, scope=None):
    """`scale * sum(|w|)`; a scale of 0.0 disables it (the function returns None)."""
    scale = _checked_scale(scale)
    if isinstance(scale, numbers.Real) and scale == 0.0:
        return lambda _: None

    def l1(weights, name=None):
        with tf1.name_scope(scope, "l1_regularizer", [weights]) as scope_name:
            my_scale = tf.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return tf.multiply(my_scale, tf.reduce_sum(tf.abs(weights)), name=scope_name)
    return l1


def l2_regularizer(scale, scope=None):
    """`scale * l2_loss(w)` (= scale * sum(w**2) / 2); a scale of 0.0 disables it."""
    scale = _checked_scale(scale)
    if isinstance(scale, numbers.Real) and scale == 0.0:
        return lambda _: None

    def l2(weights):
        with tf1.name_scope(scope, "l2_regularizer", [weights]) as scope_name:
            my_scale = tf.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return tf.multiply(my_scale, tf.nn.l2_loss(weights), name=scope_name)
    return l2


# ----------------------------------------------------------------------------- layer_norm


@add_arg_scope
def layer_norm(inputs, center=True, scale=True, activation_fn=None, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               begin_norm_axis=1, begin_params_axis=-1, scope=None):
    """tf.contrib.layers.layer_norm: variables `<scope or LayerNorm>/beta` and `/gamma`.

    Moments over axes `begin_norm_axis..rank-1`, epsilon 1e-12 (1e-3 for float16), parameters
    shaped like `inputs.shape[begin_params_axis:]`, as TF 1.15 (BERT's `layer_norm` uses it).
    """
    with tf1.variable_scope(scope, "LayerNorm", [inputs], reuse=reuse) as variable_scope:
        inputs = tf.convert_to_tensor(inputs)
        inputs_shape = inputs.shape
        inputs_rank = inputs_shape.rank
        if inputs_rank is None:
            raise ValueError(f"Inputs {inputs.name} has undefined rank.")
        dtype = inputs.dtype.base_dtype
        if begin_norm_axis < 0:
            begin_norm_axis = inputs_rank + begin_norm_axis
        if begin_params_axis >= inputs_rank or begin_norm_axis >= inputs_rank:
            raise ValueError(
                f"begin_params_axis ({begin_params_axis}) and begin_norm_axis "
                f"({begin_norm_axis}) must be < rank(inputs) ({inputs_rank})")
        params_shape = inputs_shape[begin_params_axis:]
        if not params_shape.is_fully_defined():
            raise ValueError(
                f"Inputs {inputs.name}: shape(inputs)[{begin_params_axis}:] is not fully "
                f"defined: {inputs_shape}")
        beta = gamma = None
        if center:
            beta = _model_variable("beta", params_shape, dtype, tf1.zeros_initializer(),
                                   variables_collections, trainable)
        if scale:
            gamma = _model_variable("gamma", params_shape, dtype, tf1.ones_initializer(),
                                    variables_collections, trainable)
        norm_axes = list(range(begin_norm_axis, inputs_rank))
        mean, variance = tf.nn.moments(inputs, norm_axes, keepdims=True)
        variance_epsilon = 1e-12 if dtype != tf.float16 else 1e-3
        outputs = tf.nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma,
                                            variance_epsilon=variance_epsilon)
        outputs.set_shape(inputs_shape)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        if outputs_collections:  # contrib's collect_named_outputs: tagged with the scope's name
            aliases = getattr(outputs, "aliases", None)
            if aliases is None:
                outputs.aliases = [variable_scope.name]
            else:
                aliases.append(variable_scope.name)
            for collection in ([outputs_collections] if isinstance(outputs_collections, str)
                               else outputs_collections):
                tf1.add_to_collection(collection, outputs)
        return outputs


def _model_variable(name, shape, dtype, initializer, variables_collections, trainable):
    """contrib's `model_variable`: GLOBAL_VARIABLES + MODEL_VARIABLES (+ the user's collections)."""
    if isinstance(variables_collections, dict):
        extra = variables_collections.get(name) or []
    else:
        extra = variables_collections or []
    extra = [extra] if isinstance(extra, str) else list(extra)
    collections = extra + [tf1.GraphKeys.GLOBAL_VARIABLES, tf1.GraphKeys.MODEL_VARIABLES]
    return tf1.get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                            collections=collections, trainable=trainable)


# ----------------------------------------------------------------------------- HParams


class HParams:
    """tf.contrib.training.HParams: named hyperparameters with typed `parse("a=1,b=x")`.

    Supported: keyword construction, attribute access, `add_hparam`, `set_hparam` (type kept,
    ints widen to floats), `del_hparam`, `parse` of `name=value` / `name=[v1,v2]` lists,
    `override_from_dict`, `values`, `get`, `to_json`, `parse_json`, `in`.
    """

    def __init__(self, hparam_def=None, model_structure=None, **kwargs):
        if hparam_def is not None:
            raise NotImplementedError(
                "HParams(hparam_def=...) (a protobuf) is not supported by the compat runner; "
                "pass the hyperparameters as keyword arguments.")
        self._hparam_types = {}
        self._model_structure = model_structure
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name, value):
        if getattr(self, name, None) is not None:
            raise ValueError(f"Hyperparameter name is reserved: {name}")
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError(f"Multi-valued hyperparameters cannot be empty: {name}")
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name, value):
        param_type, is_list = self._hparam_types[name]
        if isinstance(value, list):
            if not is_list:
                raise ValueError(f"Must not pass a list for single-valued parameter: {name}")
            setattr(self, name, [_cast_to_type(name, param_type, item) for item in value])
        else:
            if is_list:
                raise ValueError(f"Must pass a list for multi-valued parameter: {name}.")
            setattr(self, name, _cast_to_type(name, param_type, value))

    def del_hparam(self, name):
        if hasattr(self, name):
            delattr(self, name)
            del self._hparam_types[name]

    def parse(self, values):
        """Override from a string like `learning_rate=0.1,layers=[64,32],name=abc`."""
        for name, raw in _split_assignments(values):
            if name not in self._hparam_types:
                raise ValueError(f"Unknown hyperparameter type for {name}")
            param_type, is_list = self._hparam_types[name]
            if is_list:
                if not (raw.startswith("[") and raw.endswith("]")):
                    raise ValueError(f"Must pass a list for multi-valued parameter: {name}.")
                items = [item.strip() for item in raw[1:-1].split(",") if item.strip()]
                self.set_hparam(name, [_parse_scalar(name, param_type, item) for item in items])
            else:
                self.set_hparam(name, _parse_scalar(name, param_type, raw))
        return self

    def override_from_dict(self, values_dict):
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def values(self):
        return {name: getattr(self, name) for name in self._hparam_types}

    def get(self, key, default=None):
        if key in self._hparam_types:
            return getattr(self, key)
        return default

    def to_json(self, indent=None, separators=None, sort_keys=False):
        return json.dumps(self.values(), indent=indent, separators=separators,
                          sort_keys=sort_keys)

    def parse_json(self, values_json):
        return self.override_from_dict(json.loads(values_json))

    def __contains__(self, key):
        return key in self._hparam_types

    def __str__(self):
        return str(sorted(self.values().items()))

    def __repr__(self):
        return f"{type(self).__name__}({self.__str__()})"


def _split_assignments(values):
    """`a=1,b=[1,2],c=x` -> [(a, '1'), (b, '[1,2]'), (c, 'x')], commas inside [] kept."""
    assignments, depth, current = [], 0, ""
    for char in values:
        if char == "," and depth == 0:
            assignments.append(current)
            current = ""
            continue
        depth += {"[": 1, "]": -1}.get(char, 0)
        current += char
    assignments.append(current)
    parsed = []
    for assignment in filter(str.strip, assignments):
        name, sep, raw = assignment.partition("=")
        if not sep:
            raise ValueError(f"Could not parse hparam {assignment!r} in {values!r}: expected "
                             "name=value")
        parsed.append((name.strip(), raw.strip()))
    return parsed


def _parse_scalar(name, param_type, raw):
    if param_type is bool:
        if raw.lower() in ("true", "1"):
            return True
        if raw.lower() in ("false", "0"):
            return False
        raise ValueError(f"Could not parse {raw!r} as a bool for hparam {name}")
    if param_type is str:
        return raw
    try:
        return param_type(raw)
    except ValueError:
        raise ValueError(
            f"Could not parse {raw!r} as {param_type.__name__} for hparam {name}") from None


def _cast_to_type(name, param_type, value):
    if param_type is float and isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    if param_type is int and isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, param_type):
        return value
    raise ValueError(
        f"Could not cast hparam {name!r} value {value!r} of type {type(value).__name__} to "
        f"{param_type.__name__}")


# ----------------------------------------------------------------------------- estimator internals


def load_global_step_from_checkpoint_dir(checkpoint_dir):
    """TF 1.15's private `estimator._load_global_step_from_checkpoint_dir`, which TPU scripts
    call to resume their train/eval loops: the
    `global_step` of the latest checkpoint in `checkpoint_dir`, or 0 when there is none or it
    cannot be read (TF 1.15 caught every error the same way)."""
    try:
        reader = tf1.train.NewCheckpointReader(tf.train.latest_checkpoint(checkpoint_dir))
        return reader.get_tensor(tf1.GraphKeys.GLOBAL_STEP)
    except Exception:  # noqa: BLE001 (TF 1.15: bare except, returns 0)
        return 0


# ----------------------------------------------------------------------------- tf.contrib.framework


def get_name_scope():
    """tf.contrib.framework.get_name_scope (TF 1.15: contrib/framework/python/ops/ops.py): the
    name scope of the default graph, `scope1/scope2` inside `name_scope('scope1')` and
    `name_scope('scope2')`. (tf.get_current_name_scope answers the same in a graph, but in eager
    code the eager scope; TF 1.15's contrib asked the default graph always.)"""
    return tf1.get_default_graph().get_name_scope()


def filter_variables(var_list, include_patterns=None, exclude_patterns=None, reg_search=True):
    """tf.contrib.framework.filter_variables (TF 1.15: contrib/framework/python/ops/variables.py):
    the variables of `var_list` whose name matches an include pattern (all when None) and no exclude
    pattern, in list order; patterns are regular expressions tried with re.search, or re.match when
    reg_search is False. Used by tensorflow/moonlight's glyph models to pick the variables to train."""
    reg_exp_func = re.search if reg_search else re.match
    if include_patterns is None:
        included_variables = list(var_list)
    else:
        included_variables = [var for var in var_list
                              if any(reg_exp_func(pattern, var.name) for pattern in include_patterns)]
    if exclude_patterns is None:
        return included_variables
    return [var for var in included_variables
            if not any(reg_exp_func(pattern, var.name) for pattern in exclude_patterns)]
