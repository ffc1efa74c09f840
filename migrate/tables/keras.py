"""Keras tables: Keras 2 argument spellings, TF1 optimizers passed to `compile`, removed Keras 2 APIs.

Pure data; the logic is in migrate/codemods/keras_arguments.py, keras_optimizers.py and
keras_methods.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from migrate.tables.entries import Replacement, Unsupported

_OPTIMIZERS = ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl")

KERAS = {
    f"keras.optimizers.{name}": Replacement(f"keras.optimizers.{name}", rename_kwargs={"lr": "learning_rate"},
                                            unsupported_kwargs=("decay",))
    for name in _OPTIMIZERS
}
# TF 2.1-2.3's mixed precision API (the bfloat16 policy of TPU programs: google-research/fixmatch
# imagenet/fixmatch.py, heldout3): Keras 3 has the same objects without `experimental`. Policy's
# loss_scale argument is gone (Keras 3's compile wraps the optimizer of a mixed_float16 model in a
# dynamic LossScaleOptimizer itself, as loss_scale='auto' did): reported, not dropped.
KERAS.update({
    "keras.mixed_precision.experimental.Policy": Replacement("tensorflow.keras.mixed_precision.Policy",
                                                             unsupported_kwargs=("loss_scale",)),
    "keras.mixed_precision.experimental.set_policy": Replacement(
        "tensorflow.keras.mixed_precision.set_global_policy"),
    "keras.mixed_precision.experimental.global_policy": Replacement(
        "tensorflow.keras.mixed_precision.global_policy"),
})

# Keras 1.15-2.15's BatchNormalization averaged the fused kernel's Bessel-corrected batch variance
# into the moving variance on 4-D inputs; Keras 3's averages the biased one
# (estimator_bridge/compat/keras_batch_norm.py, measured there): the subclass keeps Keras 2's update.
KERAS["keras.layers.BatchNormalization"] = Replacement("estimator_bridge.compat.keras_batch_norm.BatchNormalization")

# Keras 3 has no feature-column layer (DenseFeatures; TF 1.13 called it feature_column_v2.FeatureLayer):
# training-data-analyst's Taxifare notebooks (2019) stopped at an AttributeError. TF's feature columns
# as a Keras 3 layer (estimator_bridge/compat/keras_dense_features.py, oracle-tested).
for _name in ("keras.layers.DenseFeatures", "tensorflow.python.feature_column.feature_column_v2.FeatureLayer"):
    KERAS[_name] = Replacement("estimator_bridge.compat.keras_dense_features.DenseFeatures")


@dataclass(frozen=True)
class KerasOptimizer:
    """The Keras 3 optimizer that applies the same update as a TF1 `tf.train.*Optimizer`.

    target: its full dotted name (a Keras optimizer, or one of estimator_bridge.compat.keras_tf1_optimizers).
    signature: the TF1 constructor's parameters in order (positional arguments are passed to
      the target by these names, renamed by `rename`).
    rename: {TF1 parameter: target's parameter}.
    defaults: {target's parameter: source text} for TF1 defaults that differ from the target's:
      added when the call does not pass the parameter.
    dropped: TF1 parameters with no effect on the numbers and no counterpart (use_locking,
      slot names).
    difference: why the numbers still differ from TF1's, when they do (a finding), else "".
    """

    target: str
    signature: tuple[str, ...]
    rename: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, str] = field(default_factory=dict)
    dropped: tuple[str, ...] = ("use_locking",)
    difference: str = ""


# Keras 3's own optimizers compute other numbers than TF 1.x's (measured against TF 1.15,
# tests/migrate/test_keras_optimizers.py): RMSprop starts its mean-square accumulator at 0 (TF 1.x: 1),
# and with a sparse gradient (an Embedding's) every optimizer but SGD squares the rows before summing
# those that share an index, or moves the rows the batch did not touch. TF 1.x's optimizers rebuilt on
# TF's training kernels, with TF 1.x's argument names and defaults, take their place.
TF1_KERAS_OPTIMIZERS = "estimator_bridge.compat.keras_tf1_optimizers."

# TF 1.15 signatures (checked against the oracle by tests/migrate/test_keras_optimizers.py).
TF1_OPTIMIZERS: dict[str, KerasOptimizer] = {
    "tensorflow.train.AdamOptimizer": KerasOptimizer(
        TF1_KERAS_OPTIMIZERS + "Adam", ("learning_rate", "beta1", "beta2", "epsilon", "use_locking", "name")),
    "tensorflow.train.GradientDescentOptimizer": KerasOptimizer(
        "tensorflow.keras.optimizers.SGD", ("learning_rate", "use_locking", "name")),
    "tensorflow.train.MomentumOptimizer": KerasOptimizer(
        TF1_KERAS_OPTIMIZERS + "Momentum", ("learning_rate", "momentum", "use_locking", "name", "use_nesterov")),
    "tensorflow.train.RMSPropOptimizer": KerasOptimizer(
        TF1_KERAS_OPTIMIZERS + "RMSProp",
        ("learning_rate", "decay", "momentum", "epsilon", "use_locking", "centered", "name")),
    "tensorflow.train.AdagradOptimizer": KerasOptimizer(
        TF1_KERAS_OPTIMIZERS + "Adagrad", ("learning_rate", "initial_accumulator_value", "use_locking", "name")),
    "tensorflow.train.AdadeltaOptimizer": KerasOptimizer(
        TF1_KERAS_OPTIMIZERS + "Adadelta", ("learning_rate", "rho", "epsilon", "use_locking", "name")),
    "tensorflow.train.FtrlOptimizer": KerasOptimizer(
        TF1_KERAS_OPTIMIZERS + "Ftrl",
        ("learning_rate", "learning_rate_power", "initial_accumulator_value", "l1_regularization_strength",
         "l2_regularization_strength", "use_locking", "name", "accum_name", "linear_name",
         "l2_shrinkage_regularization_strength"),
        dropped=("use_locking", "accum_name", "linear_name")),
}

# TF1 optimizers Keras has no counterpart for: reported when passed to compile.
TF1_OPTIMIZERS_WITHOUT_KERAS = frozenset({
    "tensorflow.train.ProximalAdagradOptimizer", "tensorflow.train.ProximalGradientDescentOptimizer",
    "tensorflow.train.AdagradDAOptimizer", "tensorflow.train.SyncReplicasOptimizer",
})


@dataclass(frozen=True)
class RemovedMethod:
    """A Keras 2 model method Keras 3 removed, and the method that does the same.

    signature: the Keras 2 parameters in order (arguments after the first are passed by keyword).
    rename: {Keras 2 parameter: new parameter}.
    defaults: {parameter: source text} where the old method's default differs from the new one's.
    dropped: parameters Keras 3 moved elsewhere (they tune input loading, not the numbers):
      dropped with a finding that says where they went.
    """

    target: str
    signature: tuple[str, ...]
    rename: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, str] = field(default_factory=dict)
    dropped: tuple[str, ...] = ("max_queue_size", "workers", "use_multiprocessing")


REMOVED_METHODS: dict[str, RemovedMethod] = {
    "fit_generator": RemovedMethod(
        "fit", ("generator", "steps_per_epoch", "epochs", "verbose", "callbacks", "validation_data",
                "validation_steps", "validation_freq", "class_weight", "max_queue_size", "workers",
                "use_multiprocessing", "shuffle", "initial_epoch"),
        rename={"generator": "x"}),
    "evaluate_generator": RemovedMethod(
        "evaluate", ("generator", "steps", "callbacks", "max_queue_size", "workers", "use_multiprocessing",
                     "verbose"),
        rename={"generator": "x"}, defaults={"verbose": "0"}),
    "predict_generator": RemovedMethod(
        "predict", ("generator", "steps", "callbacks", "max_queue_size", "workers", "use_multiprocessing",
                    "verbose"),
        rename={"generator": "x"}, defaults={"verbose": "0"}),
}

# Weight files: Keras 3's save_weights (and ModelCheckpoint(save_weights_only=True)) only write
# `.weights.h5`; its load_weights still reads Keras 2 `.h5`/`.hdf5` files.
WEIGHTS_SUFFIX = ".weights.h5"

# `model.compile(...)` keywords Keras 3 spells otherwise (TF 2.2-2.3's experimental name, TF 1.14-
# 2.1's distribution-strategy name): same meaning, the Keras counterpart of iterations_per_loop.
COMPILE_KEYWORD_RENAMES = {
    "experimental_steps_per_execution": "steps_per_execution",
    "steps_per_run": "steps_per_execution",
}
# `model.compile(...)`'s positional parameters in TF 1.x/2.x Keras (Keras 2). Keras 3 put `loss_weights` third
# (optimizer, loss, loss_weights, metrics, ...), so a TF 1.x call `model.compile("adam", loss, [acc])` handed
# the metrics to loss_weights and failed at run time ("Failed to convert elements of <function acc> to
# Tensor"; heldout5: koshian2/affinity-loss cnn_cifar_affinity.py). Positions from the third on are written
# as these keywords (codemods/keras_methods.py); the two Keras 3 lacks stay positional-free (not rewritten).
COMPILE_TF1_POSITIONAL = ("optimizer", "loss", "metrics", "loss_weights", "sample_weight_mode", "weighted_metrics",
                          "target_tensors")
COMPILE_KERAS3_KEYWORDS = frozenset({"optimizer", "loss", "metrics", "loss_weights", "weighted_metrics"})
# ModelCheckpoint keywords Keras 3 does not take and that change nothing there: Keras 3 writes
# checkpoints through the host's Python (h5py / its own zip format), so TF's I/O-device option
# (`options=tf.saved_model.SaveOptions(experimental_io_device='/job:localhost')`) has nothing to do.
CHECKPOINT_DROPPED_KEYWORDS = ("options",)
KERAS2_H5_SUFFIXES = (".h5", ".hdf5")

# Removed Keras 2 APIs with no faithful rewrite: reported where they are used.
KERAS_UNSUPPORTED = {
    "keras.backend.set_learning_phase": Unsupported(
        "MIG207", "`{name}` is gone in Keras 3 (no global learning phase)",
        "pass training=False/True where the model is called (model(x, training=False)); fit/evaluate/predict "
        "set it themselves"),
    "keras.backend.learning_phase": Unsupported(
        "MIG207", "`{name}` is gone in Keras 3 (no global learning phase)",
        "pass `training` to the layer or model call instead of reading a global phase"),
}

# TF 1.x Keras named a metric given by string after the function it resolved to, except
# 'accuracy'/'acc' -> 'acc' and 'crossentropy'/'ce' -> 'ce' (TF 1.15 training_utils.
# get_metric_name, tf2 behaviour off); Keras 2 under TF2 and Keras 3 keep the string as written.
# So a TF1 notebook's `history.history['acc']` / `['val_mean_absolute_error']` raised KeyError
# after migration (GoogleCloudPlatform/training-data-analyst 07_Keras_Flowers_TPU_squeezenet,
# a12263e96, 2019). Measured on TF 1.15 and Keras 3.15 (history keys of each string, three losses):
# these strings name the same metric in Keras 3 and give TF 1.x's names.
TF1_METRIC_NAMES = {
    "accuracy": "acc",
    "mae": "mean_absolute_error",
    "mse": "mean_squared_error",
    "mape": "mean_absolute_percentage_error",
    "msle": "mean_squared_logarithmic_error",
}
# TF 1.x metric strings Keras 3 refuses (ValueError: Could not interpret metric identifier):
# {string: (TF 1.x's name for it, what to write in Keras 3)}.
TF1_METRICS_WITHOUT_KERAS3_NAME = {
    "crossentropy": ("ce", "the loss's own crossentropy metric, e.g. keras.metrics.CategoricalCrossentropy(name='ce')"),
    "ce": ("ce", "the loss's own crossentropy metric, e.g. keras.metrics.CategoricalCrossentropy(name='ce')"),
    "logcosh": ("logcosh", "keras.metrics.LogCoshError(name='logcosh')"),
}

# Keras 2 module paths Keras 3 folded into their package (standalone `keras.layers.convolutional.Conv2D`,
# `from keras.layers.advanced_activations import LeakyReLU`, and tf.keras's spellings of them: every name
# of these modules is in keras.layers); a random draw of 40 TPU-era files had them with no finding.
KERAS2_LAYER_MODULES = ("advanced_activations", "convolutional", "convolutional_recurrent", "core", "embeddings",
                        "merge", "noise", "normalization", "pooling", "recurrent", "wrappers", "local")
KERAS.update({f"keras.layers.{module}": Replacement("keras.layers") for module in KERAS2_LAYER_MODULES})

# Keras 2's preprocessing utilities Keras 3 removed (pure Python/numpy: the Tokenizer of text
# notebooks, ImageDataGenerator's numpy batches, which Keras 3's fit takes as a generator): served
# unchanged by tf-keras (Keras 2, pinned with the TensorFlow release), whose objects do not touch
# Keras 3 models. keras.preprocessing.sequence.pad_sequences is still in Keras 3.
KERAS2_PREPROCESSING = {
    "text": ("Tokenizer", "tokenizer_from_json", "text_to_word_sequence", "one_hot", "hashing_trick"),
    "image": ("ImageDataGenerator", "Iterator", "DirectoryIterator", "NumpyArrayIterator", "apply_affine_transform",
              "apply_brightness_shift", "apply_channel_shift", "random_brightness", "random_channel_shift",
              "random_rotation", "random_shear", "random_shift", "random_zoom"),
    "sequence": ("TimeseriesGenerator", "make_sampling_table", "skipgrams"),
}
KERAS.update({f"keras.preprocessing.{module}.{name}": Replacement(f"tf_keras.preprocessing.{module}.{name}")
              for module, names in KERAS2_PREPROCESSING.items() for name in names})
# ImageDataGenerator's flows are tf-keras Sequences, which Keras 3's fit refuses ("Unrecognized data
# type"; koshian2/ResNet-MultipleFramework's resnet_keras_tpu.py, 2018): its subclass whose flows are
# Keras 3 PyDatasets over the same tf-keras batches.
KERAS["keras.preprocessing.image.ImageDataGenerator"] = Replacement(
    "estimator_bridge.compat.keras2_image.ImageDataGenerator")

# Keras 2 backend functions (`from keras import backend as K; K.mean(...)`) Keras 3 removed.
# Same parameters and numbers in keras.ops (Keras 2's K.<name>(x, axis=None, keepdims=False) etc.):
KERAS2_BACKEND_AS_OPS = {name: name for name in (
    "abs", "all", "any", "cos", "equal", "exp", "greater", "greater_equal", "less", "less_equal", "log",
    "max", "maximum", "mean", "min", "minimum", "not_equal", "prod", "reshape", "sigmoid", "sign", "sin",
    "softmax", "softplus", "softsign", "square", "stack", "std", "sum", "tanh", "transpose", "var")}
KERAS2_BACKEND_AS_OPS["pow"] = "power"
# Keras 2 semantics Keras 3's namesake lacks (clipped sqrt, last-axis defaults, int_shape's tuple):
# estimator_bridge.compat.keras2_backend keeps them, on keras.ops.
KERAS2_BACKEND_HELPERS = ("sqrt", "expand_dims", "argmax", "argmin", "concatenate", "int_shape", "cast")
KERAS.update({f"keras.backend.{name}": Replacement(f"keras.ops.{target}")
              for name, target in KERAS2_BACKEND_AS_OPS.items()})
KERAS.update({f"keras.backend.{name}": Replacement(f"estimator_bridge.compat.keras2_backend.{name}")
              for name in KERAS2_BACKEND_HELPERS})
# The rest of Keras 2's backend functions: no Keras 3 function computes the same for every call.
KERAS2_BACKEND_WITHOUT_KERAS3 = (
    "arange", "batch_dot", "batch_flatten", "batch_get_value", "batch_normalization", "batch_set_value", "bias_add",
    "binary_crossentropy", "binary_focal_crossentropy", "cast_to_floatx", "categorical_crossentropy",
    "categorical_focal_crossentropy", "clip", "constant", "conv1d", "conv2d", "conv2d_transpose", "conv3d",
    "count_params", "ctc_batch_cost", "ctc_decode", "ctc_label_dense_to_sparse", "cumprod", "cumsum",
    "depthwise_conv2d", "dot", "dropout", "dtype", "elu", "eval", "eye", "flatten", "foldl", "foldr", "function",
    "gather", "get_value", "gradients", "hard_sigmoid", "in_test_phase", "in_top_k", "in_train_phase", "is_sparse",
    "l2_normalize", "learning_phase_scope", "local_conv1d", "local_conv2d", "manual_variable_initialization",
    "map_fn", "moving_average_update", "name_scope", "ndim", "normalize_batch_in_training", "one_hot", "ones",
    "permute_dimensions", "placeholder", "pool2d", "pool3d", "print_tensor", "random_bernoulli", "random_binomial",
    "random_normal", "random_normal_variable", "random_uniform", "random_uniform_variable", "relu", "repeat",
    "repeat_elements", "reset_uids", "resize_images", "resize_volumes", "reverse", "rnn", "round",
    "separable_conv2d", "set_value", "shape", "spatial_2d_padding", "spatial_3d_padding", "stop_gradient", "switch",
    "temporal_padding", "tile", "to_dense", "truncated_normal", "update", "update_add", "update_sub", "variable",
    "zeros", "ones_like", "zeros_like")
KERAS_UNSUPPORTED.update({
    f"keras.backend.{name}": Unsupported(
        "MIG207", "`{name}` is gone in Keras 3 (its backend keeps no math functions)",
        f"use keras.ops or tf.* (check the parameters: keras.ops.{name} may differ from Keras 2's), or, for "
        f"code that only runs on TF tensors (a custom layer's call), Keras 2's own "
        f"`tf_keras.backend.{name}` (the tf-keras package)")
    for name in KERAS2_BACKEND_WITHOUT_KERAS3})
KERAS["keras.utils.print_summary"] = Replacement("estimator_bridge.compat.keras2_utils.print_summary")
