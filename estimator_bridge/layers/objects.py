"""The object forms (`Dense(3)` then `layer(x)`): one object shares its variables across calls."""

from __future__ import annotations

import inspect

from estimator_bridge import layer_arguments as _arguments
from estimator_bridge.layers.base import (LayerObjectState, LayerStateViews, calling_object, count_keras_name,
                                          snake_case)
from estimator_bridge.layers.convolution import (conv1d, conv2d, conv2d_transpose, conv3d,
                                                 separable_conv2d)
from estimator_bridge.layers.core import dense, dropout, flatten
from estimator_bridge.layers.normalization import batch_normalization, tf115_moments
from estimator_bridge.layers.pooling import (average_pooling1d, average_pooling2d,
                                             average_pooling3d, max_pooling1d, max_pooling2d,
                                             max_pooling3d)


class _LayerObject(LayerStateViews):
    """Base of TF1's object API (`tf.layers.Dense(3)` then `layer(x)`), over the layer functions.

    The configuration is taken at construction; the first call creates the variables in a scope
    uniquified from the layer's name (`dense`, `dense_1`, ...), every later call of the same
    object re-enters that scope with `reuse=True`, i.e. shares the variables, as TF 1.15 did.
    """

    _function = None

    # TF 1.15's Keras-1 layer methods that tf.layers called internally; a subclass overriding
    # one changed the layer's arithmetic there. These objects run the layer functions, which
    # call back only the overrides in `_honoured_overrides` (BatchNormalization's `_moments`,
    # which tensorflow/tpu's EfficientNet and MnasNet override); any other override would never
    # be called, so defining one is an error.
    _KERAS1_INTERNALS = frozenset({
        "call", "build", "compute_output_shape", "add_weight", "_moments",
        "_assign_moving_average", "_fused_batch_norm", "_get_training_value",
        "_calculate_mean_and_var", "_renorm_correction_and_moments", "_compute_causal_padding"})
    _honoured_overrides = frozenset()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_function" in vars(cls):  # a tf.layers class of this module (_object_layer)
            return
        overridden = sorted(name for name in vars(cls)
                            if name in _LayerObject._KERAS1_INTERNALS - cls._honoured_overrides)
        if overridden:
            base = next(b.__name__ for b in cls.__mro__[1:] if "_function" in vars(b))
            raise TypeError(
                f"{cls.__name__} subclasses tf.layers.{base} and overrides {overridden}: "
                "estimator_bridge's tf.layers objects run TF 1.15's layer functions, not Keras-1 "
                "layers, so the override would never be called. Write the layer on "
                "tf.keras.layers.Layer (or drop the override if it does not change the "
                "arithmetic on your devices).")

    def __init__(self, *args, name=None, **kwargs):
        parameters = type(self)._parameters()
        if len(args) > len(parameters):
            raise TypeError(f"{type(self).__name__} takes at most {len(parameters)} positional "
                            f"arguments ({len(args)} given)")
        self._config = {p.name: p.default for p in parameters}
        for parameter, value in zip(parameters, args):
            self._config[parameter.name] = value
        unknown = set(kwargs) - set(self._config) - {"dtype"}
        if unknown:
            raise TypeError(f"{type(self).__name__} got unexpected keyword arguments "
                            f"{sorted(unknown)}; it accepts {sorted(self._config)}.")
        self._config.update({k: v for k, v in kwargs.items() if k in self._config})
        missing = [p.name for p in parameters if self._config[p.name] is inspect.Parameter.empty]
        if missing:
            raise TypeError(f"{type(self).__name__} missing required arguments: {missing}")
        # TF 1.15 resolved names ("relu", "he_normal", "l2", "max_norm") in the constructor.
        self._config = _arguments.resolve(self._config)
        if not name:
            count_keras_name(type(self)._base_name())
        self._state = LayerObjectState(name or type(self)._base_name())
        self.name = name or type(self)._base_name()
        if "_moments" in self._honoured_overrides and type(self)._moments is not _BatchNormObject._moments:
            self._state.moments = self._moments

    @classmethod
    def _base_name(cls):
        """TF 1.15's default layer name: the class name in snake case (Keras-1 `to_snake_case`).

        Of the layer's own class, so a subclass `TpuBatchNormalization` creates its variables
        under `tpu_batch_normalization/` as in TF 1.15 (released EfficientNet checkpoints hold
        those names), not under its base's `batch_normalization/`.
        """
        return snake_case(cls.__name__)

    # TF 1.15's constructor order where it differs from the function's (checked against the
    # oracle's signatures by tests/estimator_bridge/test_layer_arguments.py).
    _order = None
    _defaults = None  # constructor defaults TF 1.15 spelled otherwise (same meaning)

    @classmethod
    def _parameters(cls):
        """The constructor's parameters: the function's, minus the per-call ones, TF1's order."""
        by_name = {p.name: p for p in inspect.signature(cls._function).parameters.values()
                   if p.name not in ("inputs", "name", "reuse", "training")}
        defaults = cls._defaults or {}
        return [by_name[name].replace(default=defaults[name]) if name in defaults
                else by_name[name] for name in (cls._order or by_name)]

    @classmethod
    def _signature(cls):
        parameters = cls._parameters() + [
            inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
            inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)]
        return inspect.Signature(parameters)

    def __call__(self, inputs, *args, **kwargs):
        token = calling_object.set(self._state)
        try:
            outputs = type(self)._function(inputs, *args, **self._config, **kwargs)
        finally:
            calling_object.reset(token)
        self.name = self._state.scope.name.rsplit("/", 1)[-1]
        self.built = True
        return outputs

    apply = __call__
    built = False


class _BatchNormObject(_LayerObject):
    """What tf.layers.BatchNormalization adds to the object base: the `_moments` hook."""

    _honoured_overrides = frozenset({"_moments"})

    def _moments(self, inputs, reduction_axes, keep_dims):
        """TF 1.15's batch moments; override it to change them (cross-replica averages)."""
        return tf115_moments(inputs, reduction_axes, keep_dims)


def _object_layer(class_name, function, extra_doc="", order=None, defaults=None,
                  base=_LayerObject):
    """A layer class whose calls run `function` (staticmethod: no bound `self`).

    Not `tf.layers.Layer`, the base for user-defined layers with build()/call(): that one is not
    provided (it is Keras-1 machinery).
    """
    doc = (f"`tf.layers.{class_name}`: object form of `{function.__name__}` (variables shared "
           f"by every call of one object).{extra_doc}")
    cls = type(class_name, (base,), {"_function": staticmethod(function), "__doc__": doc,
                                     "_order": order, "_defaults": defaults})
    cls.__signature__ = cls._signature()  # what inspect.signature shows: TF 1.15's
    return cls


Dense = _object_layer("Dense", dense)
Conv1D = _object_layer("Conv1D", conv1d)
Conv2D = _object_layer("Conv2D", conv2d)
Conv2DTranspose = _object_layer("Conv2DTranspose", conv2d_transpose)
MaxPooling1D = _object_layer("MaxPooling1D", max_pooling1d)
MaxPooling2D = _object_layer("MaxPooling2D", max_pooling2d)
AveragePooling1D = _object_layer("AveragePooling1D", average_pooling1d)
AveragePooling2D = _object_layer("AveragePooling2D", average_pooling2d)
Flatten = _object_layer("Flatten", flatten, defaults={"data_format": None})
Conv3D = _object_layer("Conv3D", conv3d)
SeparableConv2D = _object_layer("SeparableConv2D", separable_conv2d)
MaxPooling3D = _object_layer("MaxPooling3D", max_pooling3d)
AveragePooling3D = _object_layer("AveragePooling3D", average_pooling3d)
Dropout = _object_layer("Dropout", dropout,
                        " Call it as `layer(inputs, training=...)`.")
BatchNormalization = _object_layer(
    "BatchNormalization", batch_normalization,
    " Call it as `layer(inputs, training=...)`; `layer.updates` holds its moving-average updates.",
    order=("axis", "momentum", "epsilon", "center", "scale", "beta_initializer",
           "gamma_initializer", "moving_mean_initializer", "moving_variance_initializer",
           "beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint",
           "renorm", "renorm_clipping", "renorm_momentum", "fused", "trainable",
           "virtual_batch_size", "adjustment"),
    base=_BatchNormObject)
