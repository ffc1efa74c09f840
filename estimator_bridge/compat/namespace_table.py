"""The TF1-shaped namespace as data: which legacy module path holds which names, and where from.

Pure tables, no logic (the builder is `namespace.py`). Keys of `MODULES` are the dotted module
paths legacy code imports or reaches by attribute (`tensorflow.contrib.tpu`,
`tensorflow_estimator.python.estimator.tpu.tpu_estimator`). Each `Module` lists its explicit
`entries` (name -> target) and `fallbacks` consulted in order for every other name.

Targets are strings:
  * ``module:<dotted path>``     another module of this table;
  * ``bridge:<attribute path>``  an attribute of the `estimator_bridge` package, looked up when
                                 first used, so names the bridge adds later appear by themselves;
                                 a missing one is an error naming the symbol;
  * ``tf:<attribute path>``      an attribute of the real, current `tensorflow` (``tf:`` alone is
                                 the module itself);
  * ``compat:<module>.<name>``   a helper implemented in `estimator_bridge.compat.<module>`
                                 (`contrib_helpers`: tf.contrib helpers; `behavior`: TF1 switches);
  * ``unsupported:<key>``        a function that raises NotImplementedError with
                                 `UNSUPPORTED[key]` when called;
  * ``unsupported-attribute:<key>`` (fallbacks only) any other name raises UnsupportedName (an
                                 AttributeError) with `UNSUPPORTED[key]`;
  * ``pymodule:<module>[:<name>]`` a module of the installed TensorFlow that has no public
                                 `tf.` path (or one attribute of it);
  * several targets joined by ``|``: the first that exists (bridge first, TF as fallback).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from migrate.tables.aliases import CANONICAL_PREFIXES as CODEMOD_ALIASES
from migrate.tables.contrib import CONTRIB as CODEMOD_CONTRIB
from migrate.tables.contrib import SAME_OBJECT_IN_COMPAT_V1, SLIM_NETS
from migrate.tables.contrib_metrics import DELEGATED as METRICS_DELEGATED
from migrate.tables.contrib_metrics import FROM_TF_SLIM as METRICS_FROM_TF_SLIM
from migrate.tables.entries import Replacement
from migrate.tables.layers import LAYERS as CODEMOD_LAYERS
from migrate.tables.rnn_cells import CORE_CELLS as RNN_CORE_CELLS
from migrate.tables.rnn_cells import RNN_CELLS as CODEMOD_RNN_CELLS
from migrate.tables.tf1_hooks import BRIDGE_UNDER_TF_TRAIN, EARLY_STOPPING_HOOKS, NOT_SHIPPED, SHIPPED_BY_BRIDGE


@dataclass(frozen=True)
class Module:
    """One legacy module: explicit names, then fallbacks for every other name."""

    doc: str
    entries: dict = field(default_factory=dict)
    fallbacks: tuple = ()


# tf.contrib.framework's arg_scope API: tf-slim's (compat/contrib_arg_scope.py).
_ARG_SCOPE_ENTRIES = {name: f"compat:contrib_arg_scope.{name}" for name in (
    "arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope", "arg_scoped_arguments",
    "arg_scope_func_key")}

# The estimator API a TF 1.15 script sees as `tf.estimator` (and TF 2.x code as
# `tf.compat.v1.estimator` or `tensorflow_estimator.estimator`).
# Hook names: one table with the codemod (migrate/tables/tf1_hooks.py).
_HOOKS = SHIPPED_BY_BRIDGE + NOT_SHIPPED
_ESTIMATOR_ENTRIES = {
    "Estimator": "bridge:Estimator",
    "EstimatorSpec": "bridge:EstimatorSpec",
    "ModeKeys": "bridge:ModeKeys",
    "RunConfig": "bridge:RunConfig",
    "WarmStartSettings": "bridge:WarmStartSettings",
    "VocabInfo": "bridge:VocabInfo",
    "TrainSpec": "bridge:TrainSpec",
    "EvalSpec": "bridge:EvalSpec",
    "train_and_evaluate": "bridge:train_and_evaluate",
    **{exporter: f"bridge:{exporter}" for exporter in (
        "Exporter", "LatestExporter", "FinalExporter", "BestExporter")},
    "NanLossDuringTrainingError": "bridge:NanLossDuringTrainingError",
    "export": "bridge:export",
    "tpu": "module:tensorflow.estimator.tpu",
    "experimental": "module:tensorflow.estimator.experimental",
    "inputs": "module:tensorflow.estimator.inputs",
    **{hook: f"bridge:{hook}|tf:compat.v1.train.{hook}" for hook in _HOOKS},
    **{canned: "unsupported:canned_estimator" for canned in (
        "DNNClassifier", "DNNRegressor", "DNNEstimator", "LinearClassifier", "LinearRegressor",
        "LinearEstimator", "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor",
        "DNNLinearCombinedEstimator", "BaselineClassifier", "BaselineRegressor",
        "BaselineEstimator", "BoostedTreesClassifier", "BoostedTreesRegressor",
        "BoostedTreesEstimator")},
}
_TPU_ESTIMATOR_ENTRIES = {
    "TPUEstimator": "bridge:TPUEstimator",
    "TPUEstimatorSpec": "bridge:TPUEstimatorSpec",
    "RunConfig": "bridge:RunConfig",
    "TPUConfig": "bridge:TPUConfig",
    "InputPipelineConfig": "bridge:InputPipelineConfig",
}

# tf.layers: what estimator_bridge.layers implements; anything else is a clear error.
# tf.layers names the bridge rebuilds: the codemod's table (migrate/tables/layers.py), so the runner
# serves exactly what the migrated code is rewritten to (conv3d_transpose was added to one list only)
LAYER_FUNCTIONS = tuple(name.rsplit(".", 1)[1] for name in CODEMOD_LAYERS)

_CHECKPOINT_UTILS = "pymodule:tensorflow.python.training.checkpoint_utils:"

# tf.contrib.training's create_train_op and gradient helpers: tf-slim's
# (compat/contrib_training.py; the codemod's table is migrate/tables/contrib.py).
_TRAIN_OP_ENTRIES = {name: f"compat:contrib_training.{name}" for name in (
    "create_train_op", "add_gradients_summaries", "clip_gradient_norms", "clip_gradient_norms_fn",
    "multiply_gradients")}

_SLIM_LAYERS_SUBMODULES = ("layers", "initializers", "regularizers")

MODULES = {
    # ---- the TF1 top level: `import tensorflow as tf`, and `tf.compat.v1` (the same in TF 1.15)
    "tensorflow": Module(
        doc="TF1-shaped `tensorflow`: tf.compat.v1 plus tf.contrib/tf.estimator/tf.layers "
            "served by estimator_bridge.",
        entries={
            "contrib": "module:tensorflow.contrib",
            "estimator": "module:tensorflow.estimator",
            "layers": "module:tensorflow.layers",
            # Keras 2 (tf-keras) in the program's era's API: compat/legacy_keras.py
            "keras": "module:tensorflow.keras",
            "compat": "module:tensorflow.compat",
            "tpu": "module:tensorflow.tpu",
            "train": "module:tensorflow.train",
            "distribute": "module:tensorflow.distribute",
            "nn": "module:tensorflow.nn",
            "disable_v2_behavior": "compat:behavior.disable_v2_behavior",
            "disable_eager_execution": "compat:behavior.disable_eager_execution",
            # TF 1.x's tutorial package (not shipped by TF 2): its MNIST reader, on current APIs
            "examples": "module:tensorflow.examples",
        },
        fallbacks=("tf:compat.v1", "tf:"),
    ),
    # `from tensorflow.examples.tutorials.mnist import input_data`: compat/mnist_input_data.py, the
    # module the codemod rewrites input_data to (2017-2018 MNIST Estimator/Experiment tutorials)
    "tensorflow.examples": Module(
        doc="TF 1.x's `tensorflow.examples` (its tutorials' MNIST reader only).",
        entries={"tutorials": "module:tensorflow.examples.tutorials"},
    ),
    "tensorflow.examples.tutorials": Module(
        doc="TF 1.x's `tensorflow.examples.tutorials` (its MNIST reader only).",
        entries={"mnist": "module:tensorflow.examples.tutorials.mnist"},
    ),
    "tensorflow.examples.tutorials.mnist": Module(
        doc="TF 1.x's `tensorflow.examples.tutorials.mnist`: `input_data` on current APIs.",
        entries={"input_data": "pymodule:estimator_bridge.compat.mnist_input_data"},
    ),
    # `tf.nn.rnn_cell`: TF 2.21 generates tf.compat.v1.nn.rnn_cell to load through Keras 2 (tf_keras) and raise
    # under Keras 3; the TF 1.15 cells it still ships (compat/rnn_cell.py), as the codemod rewrites them
    # (migrate/tables/rnn_cells.py; heldout5's tutorials, Tacotron-2)
    "tensorflow.nn": Module(
        doc="`tf.nn` / `tf.compat.v1.nn` with TF 1.15's rnn_cell module.",
        entries={"rnn_cell": "module:tensorflow.nn.rnn_cell"},
        fallbacks=("tf:compat.v1.nn",),
    ),
    "tensorflow.nn.rnn_cell": Module(
        doc="TF 1.15's `tf.nn.rnn_cell` cells (estimator_bridge.compat.rnn_cell).",
        entries={name: f"compat:rnn_cell.{name}" for name in RNN_CORE_CELLS},
    ),
    "tensorflow.compat": Module(
        doc="`tf.compat`: v1 is the TF1-shaped namespace again, v2 the current TensorFlow.",
        entries={"v1": "module:tensorflow", "v2": "module:tensorflow.compat.v2"},
        fallbacks=("tf:compat",),
    ),
    # `import tensorflow.compat.v2 as tf` (2019 code written for TF 2.0 on TF 1.14/1.15): the current
    # TensorFlow, with the program's Keras 2 as under `tensorflow`, and the switches TF 2.x keeps in
    # tf.compat only (tensorflow/tpu's mnist_tf2_with_summary.py calls tf.enable_v2_behavior()).
    "tensorflow.compat.v2": Module(
        doc="`tf.compat.v2`: the current TensorFlow, its Keras the program's Keras 2, with enable_v2_behavior.",
        entries={"keras": "module:tensorflow.keras",
                 "enable_v2_behavior": "tf:compat.v2.enable_v2_behavior",
                 "disable_v2_behavior": "compat:behavior.disable_v2_behavior"},
        fallbacks=("tf:",),
    ),
    "tensorflow.train": Module(
        doc="`tf.train` / `tf.compat.v1.train` with the bridge's versions of the hooks TF 2 cannot "
            "construct eagerly (migrate/tables/tf1_hooks.py BRIDGE_UNDER_TF_TRAIN).",
        entries={hook: f"bridge:{hook}" for hook in BRIDGE_UNDER_TF_TRAIN},
        fallbacks=("tf:compat.v1.train",),
    ),
    "tensorflow.tpu": Module(
        doc="`tf.tpu` / `tf.compat.v1.tpu` with the bridge's CrossShardOptimizer.",
        entries={"CrossShardOptimizer": "bridge:CrossShardOptimizer"},
        fallbacks=("tf:compat.v1.tpu",),
    ),
    "tensorflow.distribute": Module(
        doc="`tf.distribute` / `tf.compat.v1.distribute` with TF 1.15's TPUClusterResolver.",
        entries={"cluster_resolver": "module:tensorflow.distribute.cluster_resolver"},
        fallbacks=("tf:compat.v1.distribute",),
    ),
    "tensorflow.distribute.cluster_resolver": Module(
        doc="`tf.distribute.cluster_resolver`: TPUClusterResolver reads tpu='' as TF 1.15 did "
            "(the local session); the other resolvers are TF's.",
        entries={"TPUClusterResolver": "bridge:TPUClusterResolver"},
        fallbacks=("tf:distribute.cluster_resolver",),
    ),
    "tensorflow.layers": Module(
        doc="`tf.layers`: TF1 layer functions from estimator_bridge.layers.",
        entries={name: f"bridge:layers.{name}" for name in LAYER_FUNCTIONS},
        fallbacks=("unsupported-attribute:layers",),
    ),
    "tensorflow.estimator": Module(
        doc="`tf.estimator` / `tf.compat.v1.estimator`: estimator_bridge.",
        entries=_ESTIMATOR_ENTRIES,
        fallbacks=("unsupported-attribute:estimator",),
    ),
    "tensorflow.estimator.experimental": Module(
        doc="`tf.estimator.experimental`: TF 1.15's early-stopping hooks (compat/early_stopping.py).",
        entries={name: f"compat:early_stopping.{name}" for name in EARLY_STOPPING_HOOKS},
        fallbacks=("unsupported-attribute:estimator_experimental",),
    ),
    "tensorflow.estimator.inputs": Module(
        doc="`tf.estimator.inputs`: numpy_input_fn and pandas_input_fn for shuffle=False on one thread "
            "(estimator_bridge/inputs.py).",
        entries={"numpy_input_fn": "bridge:inputs.numpy_input_fn", "pandas_input_fn": "bridge:inputs.pandas_input_fn"},
        fallbacks=("unsupported-attribute:estimator_inputs",),
    ),
    "tensorflow.estimator.tpu": Module(
        doc="`tf.estimator.tpu` / `tf.compat.v1.estimator.tpu`: estimator_bridge.",
        entries=_TPU_ESTIMATOR_ENTRIES,
        fallbacks=("unsupported-attribute:estimator_tpu",),
    ),
    # ---- tf.keras: Keras 2 (tf-keras, compat/legacy_keras.py), with Input(tensor=<graph tensor>) of a model_fn
    # traced by the bridge read as TF 1.x read it (tf-keras' own Input makes a functional KerasTensor there)
    "tensorflow.keras": Module(
        doc="`tf.keras` (also `tf.contrib.keras`): Keras 2 from tf-keras in the program's era's API.",
        entries={"Input": "compat:keras_input.Input", "layers": "module:tensorflow.keras.layers",
                 "estimator": "module:tensorflow.keras.estimator"},
        fallbacks=("compat:legacy_keras.tf_keras",),
    ),
    "tensorflow.keras.estimator": Module(
        doc="`tf.keras.estimator`: model_to_estimator (estimator_bridge/keras_estimator.py).",
        entries={"model_to_estimator": "bridge:model_to_estimator"},
        fallbacks=("unsupported-attribute:keras_estimator",),
    ),
    "tensorflow.keras.layers": Module(
        doc="`tf.keras.layers`: tf-keras', with TF 1.x's `Input(tensor=...)` in a traced model_fn.",
        entries={"Input": "compat:keras_input.Input"},
        fallbacks=("compat:legacy_keras.tf_keras_layers",),
    ),
    # ---- tf.contrib (removed in TF 2.0)
    "tensorflow.contrib": Module(
        doc="`tf.contrib`: the parts with a faithful equivalent on current TensorFlow.",
        entries={
            "tpu": "module:tensorflow.contrib.tpu",
            "cluster_resolver": "module:tensorflow.contrib.cluster_resolver",
            "data": "module:tensorflow.contrib.data",
            "layers": "module:tensorflow.contrib.layers",
            "training": "module:tensorflow.contrib.training",
            "summary": "module:tensorflow.contrib.summary",
            "framework": "module:tensorflow.contrib.framework",
            "metrics": "module:tensorflow.contrib.metrics",
            "slim": "module:tensorflow.contrib.slim",
            # TF 1.15's tf.contrib.keras re-exported tf.keras.
            "keras": "module:tensorflow.keras",
        },
        fallbacks=("unsupported-attribute:contrib",),
    ),
    "tensorflow.contrib.tpu": Module(
        doc="`tf.contrib.tpu`: TPUEstimator and friends from estimator_bridge.",
        entries={
            **_TPU_ESTIMATOR_ENTRIES,
            "CrossShardOptimizer": "bridge:CrossShardOptimizer",
            "keras_to_tpu_model": "compat:keras_tpu.keras_to_tpu_model",
            "TPUDistributionStrategy": "compat:keras_tpu.TPUDistributionStrategy",
            "python": "module:tensorflow.contrib.tpu.python",
            "AsyncCheckpointSaverHook": "unsupported:contrib_tpu_async_checkpoint",
            "export_estimator_savedmodel": "unsupported:contrib_tpu_export",
        },
        # The TPU ops and scopes (bfloat16_scope, cross_replica_sum, rewrite, shard, ...) are
        # the same functions in tf.compat.v1.tpu; on CPU they fail as they did on TF 1.15.
        fallbacks=("tf:compat.v1.tpu", "unsupported-attribute:contrib_tpu"),
    ),
    "tensorflow.contrib.tpu.python": Module(
        doc="Old deep import path `tensorflow.contrib.tpu.python.tpu`.",
        entries={"tpu": "module:tensorflow.contrib.tpu.python.tpu"},
    ),
    "tensorflow.contrib.tpu.python.tpu": Module(
        doc="`from tensorflow.contrib.tpu.python.tpu import tpu_estimator, tpu_config, ...`.",
        entries={
            "tpu_estimator": "module:tensorflow.contrib.tpu.python.tpu.tpu_estimator",
            "tpu_config": "module:tensorflow.contrib.tpu.python.tpu.tpu_config",
            "tpu_optimizer": "module:tensorflow.contrib.tpu.python.tpu.tpu_optimizer",
        },
    ),
    "tensorflow.contrib.tpu.python.tpu.tpu_estimator": Module(
        doc="tpu_estimator module names.",
        entries={"TPUEstimator": "bridge:TPUEstimator",
                 "TPUEstimatorSpec": "bridge:TPUEstimatorSpec"},
    ),
    "tensorflow.contrib.tpu.python.tpu.tpu_config": Module(
        doc="tpu_config module names.",
        entries={"RunConfig": "bridge:RunConfig", "TPUConfig": "bridge:TPUConfig",
                 "InputPipelineConfig": "bridge:InputPipelineConfig"},
    ),
    "tensorflow.contrib.tpu.python.tpu.tpu_optimizer": Module(
        doc="tpu_optimizer module names.",
        entries={"CrossShardOptimizer": "bridge:CrossShardOptimizer"},
    ),
    "tensorflow.contrib.cluster_resolver": Module(
        doc="`tf.contrib.cluster_resolver`: tf.distribute.cluster_resolver (same classes), "
            "TPUClusterResolver with TF 1.15's tpu='' (local session) from estimator_bridge.",
        entries={"TPUClusterResolver": "bridge:TPUClusterResolver"},
        fallbacks=("tf:distribute.cluster_resolver",),
    ),
    "tensorflow.contrib.data": Module(
        doc="`tf.contrib.data`: tf.data.experimental plus the removed batching helpers.",
        entries={
            "batch_and_drop_remainder": "compat:contrib_helpers.batch_and_drop_remainder",
            "padded_batch_and_drop_remainder": "compat:contrib_helpers.padded_batch_and_drop_remainder",
            "TFRecordDataset": "tf:data.TFRecordDataset",
        },
        fallbacks=("tf:data.experimental", "unsupported-attribute:contrib_data"),
    ),
    # TF-Slim: the tf-slim package (tf.contrib.slim's maintained extraction), whose layers and arg_scope are
    # the objects the codemod's helpers serve; its networks also under TF 1.15's deep module path
    # (tensorflow/tpu show_and_tell: `from tensorflow.contrib.slim.python.slim.nets.inception_v3 import ...`).
    "tensorflow.contrib.slim": Module(
        doc="`tf.contrib.slim`: the tf-slim package (`tf_slim`).",
        entries={"parallel_reader": "module:tensorflow.contrib.slim.parallel_reader",
                 "nets": "module:tensorflow.contrib.slim.nets",
                 **{name: f"module:tensorflow.contrib.slim.{name}" for name in _SLIM_LAYERS_SUBMODULES}},
        fallbacks=("pymodule:tf_slim",),
    ),
    **{path: Module(
        doc=f"`{path}`: tf-slim's networks (`tf_slim.nets`).",
        entries={net: f"pymodule:tf_slim.nets.{net}" for net in SLIM_NETS},
        fallbacks=("pymodule:tf_slim.nets", "unsupported-attribute:contrib_slim_nets")) for path in (
            "tensorflow.contrib.slim.nets", "tensorflow.contrib.slim.python.slim.nets")},
    # TF-Slim star-imported contrib.layers' package: `slim.layers.conv2d`, `slim.initializers.xavier_initializer`,
    # `slim.regularizers.l2_regularizer` were contrib.layers' objects (migrate/tables/aliases.py; heldout5's
    # tensorpack and facenet); each name is the codemod's helper (CODEMOD_HELPERS, below)
    **{f"tensorflow.contrib.slim.{name}": Module(
        doc=f"`tf.contrib.slim.{name}`: contrib.layers' {name} (the names the codemod rewrites).",
        fallbacks=("unsupported-attribute:contrib_slim",)) for name in _SLIM_LAYERS_SUBMODULES},
    "tensorflow.contrib.slim.parallel_reader": Module(
        doc="`tf.contrib.slim.parallel_reader`: get_data_files (the tf-slim package's).",
        entries={"get_data_files": "pymodule:tf_slim.data.parallel_reader:get_data_files"},
        fallbacks=("unsupported-attribute:contrib_slim",),
    ),
    "tensorflow.contrib.slim.python.slim.data.parallel_reader": Module(
        doc="`from tensorflow.contrib.slim.python.slim.data import parallel_reader` (its own module).",
        entries={"get_data_files": "pymodule:tf_slim.data.parallel_reader:get_data_files"},
        fallbacks=("unsupported-attribute:contrib_slim",),
    ),
    "tensorflow.contrib.layers": Module(
        doc="`tf.contrib.layers`: initializers, regularizers, layer_norm and TF 1.15's layer "
            "functions (compat/contrib_layers.py, contrib_batch_norm.py: the codemod's table).",
        entries={
            "xavier_initializer": "compat:contrib_helpers.xavier_initializer",
            "xavier_initializer_conv2d": "compat:contrib_helpers.xavier_initializer",
            "variance_scaling_initializer": "compat:contrib_helpers.variance_scaling_initializer",
            "l1_regularizer": "compat:contrib_helpers.l1_regularizer",
            "l2_regularizer": "compat:contrib_helpers.l2_regularizer",
            "layer_norm": "compat:contrib_helpers.layer_norm",
            "summaries": "pymodule:tf_slim.layers.summaries",
        },
        fallbacks=("unsupported-attribute:contrib_layers",),
    ),
    "tensorflow.contrib.metrics": Module(
        doc="`tf.contrib.metrics`: the streaming metrics with TF 1.15's signatures (compat/contrib_metrics.py).",
        entries={name: f"compat:contrib_metrics.{name}" for name in (*METRICS_DELEGATED, *METRICS_FROM_TF_SLIM)},
        fallbacks=("unsupported-attribute:contrib_metrics",),
    ),
    "tensorflow.contrib.summary": Module(
        doc="`tf.contrib.summary` (host_call summaries): TF's summary_ops_v2, the module it was.",
        entries={
            "all_summary_ops": "pymodule:tensorflow.python.ops.summary_ops_v2:all_v2_summary_ops",
            "graph": "pymodule:tensorflow.python.ops.summary_ops_v2:graph_v1",
            "create_db_writer": "unsupported:contrib_summary_db",
        },
        fallbacks=("pymodule:tensorflow.python.ops.summary_ops_v2",),
    ),
    "tensorflow.contrib.framework": Module(
        doc="`tf.contrib.framework`: the global-step, checkpoint and nest helpers core TF kept.",
        entries={
            "get_or_create_global_step": "tf:compat.v1.train.get_or_create_global_step",
            "get_global_step": "tf:compat.v1.train.get_global_step",
            "create_global_step": "tf:compat.v1.train.create_global_step",
            "assert_global_step": "tf:compat.v1.train.assert_global_step",
            "init_from_checkpoint": "tf:compat.v1.train.init_from_checkpoint",
            "list_variables": "tf:compat.v1.train.list_variables",
            "load_checkpoint": "tf:compat.v1.train.load_checkpoint",
            "load_variable": "tf:compat.v1.train.load_variable",
            "get_variables": "tf:compat.v1.global_variables",
            "get_trainable_variables": "tf:compat.v1.trainable_variables",
            "get_local_variables": "tf:compat.v1.local_variables",
            "get_model_variables": "tf:compat.v1.model_variables",
            "nest": "tf:nest",
            "is_tensor": "tf:is_tensor",
            "argsort": "tf:argsort",
            "sort": "tf:sort",
            "TensorSpec": "tf:TensorSpec",
            "py_func": "tf:compat.v1.py_func",
            **_ARG_SCOPE_ENTRIES,
            "python": "module:tensorflow.contrib.framework.python",
        },
        fallbacks=("unsupported-attribute:contrib_framework",),
    ),
    "tensorflow.contrib.framework.python": Module(
        doc="Old deep import path `tensorflow.contrib.framework.python.ops`.",
        entries={"ops": "module:tensorflow.contrib.framework.python.ops"},
    ),
    "tensorflow.contrib.framework.python.ops": Module(
        doc="`from tensorflow.contrib.framework.python.ops import arg_scope, add_arg_scope`.",
        entries={**_ARG_SCOPE_ENTRIES},
        fallbacks=("unsupported-attribute:contrib_framework",),
    ),
    "tensorflow.contrib.training": Module(
        doc="`tf.contrib.training`: HParams, the checkpoint waiters (TF 2.21's checkpoint_utils "
            "functions, which TF 1.15's contrib duplicated), and create_train_op with its "
            "gradient helpers (tf-slim's, compat/contrib_training.py).",
        entries={"HParams": "compat:contrib_helpers.HParams",
                 **_TRAIN_OP_ENTRIES,
                 "checkpoints_iterator": _CHECKPOINT_UTILS + "checkpoints_iterator",
                 "wait_for_new_checkpoint": _CHECKPOINT_UTILS + "wait_for_new_checkpoint"},
        fallbacks=("unsupported-attribute:contrib_training",),
    ),
    "tensorflow.contrib.training.python.training.evaluation": Module(
        doc="`from tensorflow.contrib.training.python.training import evaluation` (TPU eval "
            "loops: evaluation.checkpoints_iterator).",
        entries={"checkpoints_iterator": _CHECKPOINT_UTILS + "checkpoints_iterator",
                 "wait_for_new_checkpoint": _CHECKPOINT_UTILS + "wait_for_new_checkpoint"},
        fallbacks=("unsupported-attribute:contrib_training",),
    ),
    "tensorflow.contrib.training.python.training.training": Module(
        doc="`from tensorflow.contrib.training.python.training import training` (create_train_op's "
            "own module).",
        entries={**_TRAIN_OP_ENTRIES},
        fallbacks=("unsupported-attribute:contrib_training",),
    ),
    "tensorflow.contrib.training.python.training.hparam": Module(
        doc="`from tensorflow.contrib.training.python.training import hparam`.",
        entries={"HParams": "compat:contrib_helpers.HParams"},
        fallbacks=("unsupported-attribute:contrib_training",),
    ),
    # ---- tensorflow_estimator (the pip package TF 1.15-2.15 code imports directly)
    "tensorflow_estimator": Module(
        doc="`tensorflow_estimator`: estimator_bridge.",
        entries={
            "estimator": "module:tensorflow.estimator",
            "compat": "module:tensorflow_estimator.compat",
            "python": "module:tensorflow_estimator.python",
        },
    ),
    "tensorflow_estimator.compat": Module(
        doc="`tensorflow_estimator.compat.v1`.",
        entries={"v1": "module:tensorflow_estimator.compat.v1"},
    ),
    "tensorflow_estimator.compat.v1": Module(
        doc="`tensorflow_estimator.compat.v1.estimator`.",
        entries={"estimator": "module:tensorflow.estimator"},
    ),
    "tensorflow_estimator.python": Module(
        doc="`tensorflow_estimator.python.estimator...` deep imports.",
        entries={"estimator": "module:tensorflow_estimator.python.estimator"},
    ),
    "tensorflow_estimator.python.estimator": Module(
        doc="`tensorflow_estimator.python.estimator` submodules.",
        entries={
            "estimator": "module:tensorflow_estimator.python.estimator.estimator",
            "model_fn": "module:tensorflow_estimator.python.estimator.model_fn",
            "run_config": "module:tensorflow_estimator.python.estimator.run_config",
            "tpu": "module:tensorflow_estimator.python.estimator.tpu",
        },
    ),
    "tensorflow_estimator.python.estimator.estimator": Module(
        doc="estimator module names.",
        entries={"Estimator": "bridge:Estimator",
                 # TF 1.15's private helper that TPU scripts call (EfficientNet, ResNet, MnasNet)
                 "_load_global_step_from_checkpoint_dir":
                     "compat:contrib_helpers.load_global_step_from_checkpoint_dir"},
    ),
    "tensorflow_estimator.python.estimator.model_fn": Module(
        doc="model_fn module names.",
        entries={"EstimatorSpec": "bridge:EstimatorSpec", "ModeKeys": "bridge:ModeKeys"},
    ),
    "tensorflow_estimator.python.estimator.run_config": Module(
        doc="run_config module names.",
        entries={"RunConfig": "bridge:RunConfig"},
    ),
    "tensorflow_estimator.python.estimator.tpu": Module(
        doc="`tensorflow_estimator.python.estimator.tpu` submodules.",
        entries={
            "tpu_estimator": "module:tensorflow.contrib.tpu.python.tpu.tpu_estimator",
            "tpu_config": "module:tensorflow.contrib.tpu.python.tpu.tpu_config",
        },
    ),
}

# Roots the import hook serves: `import tensorflow`, `import tensorflow_estimator`.
ROOTS = ("tensorflow", "tensorflow_estimator")

# Messages for `unsupported:<key>` (raised on call) and `unsupported-attribute:<key>` (raised
# when an unlisted name is looked up in that module). Each says what to do instead.
UNSUPPORTED = {
    "canned_estimator": (
        "canned estimators (DNNClassifier, LinearRegressor, ...) are not provided by "
        "estimator_bridge; only model_fn-based Estimator/TPUEstimator are. Write the model as "
        "a model_fn or keep this script on TF <= 2.15."),
    "estimator_experimental": (
        "estimator_bridge provides only the early-stopping hooks of tf.estimator.experimental ("
        + ", ".join(EARLY_STOPPING_HOOKS) + ")."),
    "estimator_inputs": (
        "tf.estimator.inputs provides only numpy_input_fn and pandas_input_fn (shuffle=False, one thread) "
        "in estimator_bridge; otherwise return a tf.data.Dataset from input_fn, e.g. "
        "tf.data.Dataset.from_tensor_slices((features, labels)).batch(params['batch_size'])."),
    "layers": (
        "estimator_bridge.layers provides only " + ", ".join(LAYER_FUNCTIONS) + " (every "
        "argument form TF 1.15 accepted; tf.layers.Layer for your own layers and subclasses "
        "that override a layer's internals, such as tensorflow/tpu EfficientNet's "
        "TpuBatchNormalization). For another layer use the matching tf.keras.layers class "
        "(its variable names differ from TF 1's), or keep the program on TF 1.15."),
    "estimator": (
        "estimator_bridge does not provide this tf.estimator name."),
    "keras_estimator": (
        "tf.keras.estimator provides only model_to_estimator in estimator_bridge "
        "(estimator_bridge.model_to_estimator)."),
    "estimator_tpu": (
        "estimator_bridge provides TPUEstimator, TPUEstimatorSpec, RunConfig, TPUConfig and "
        "InputPipelineConfig in tf.estimator.tpu."),
    "contrib": (
        "tf.contrib was removed in TF 2.0; the compat runner provides tf.contrib.tpu, "
        "cluster_resolver, data, layers (initializers, regularizers, layer functions), summary, "
        "framework (global step, checkpoints, nest) and training.HParams. Run "
        "`estimator-migrate` to rewrite the rest."),
    "contrib_tpu": (
        "the compat runner provides TPUEstimator, TPUEstimatorSpec, RunConfig, TPUConfig, "
        "InputPipelineConfig, CrossShardOptimizer and the tf.compat.v1.tpu functions from "
        "tf.contrib.tpu."),
    "contrib_data": (
        "this tf.contrib.data name has no tf.data.experimental equivalent."),
    "contrib_layers": (
        "the compat runner provides from tf.contrib.layers the initializers and regularizers "
        "(xavier, variance_scaling, l1, l2), layer_norm, batch_norm, the convolutions (incl. "
        "separable_conv2d, conv2d_in_plane, transposes), fully_connected, bias_add, "
        "instance_norm, pooling, dropout, flatten, one_hot_encoding, repeat, stack and the "
        "summaries module (tf-slim's)."),
    "contrib_summary_db": (
        "tf.contrib.summary.create_db_writer (SQLite summaries) was removed from TensorFlow; use "
        "create_file_writer."),
    "contrib_tpu_async_checkpoint": (
        "tf.contrib.tpu.AsyncCheckpointSaverHook is not supported; the bridge writes "
        "checkpoints itself (RunConfig.save_checkpoints_steps)."),
    "contrib_tpu_export": (
        "tf.contrib.tpu.export_estimator_savedmodel is not supported; call "
        "estimator.export_saved_model(export_dir, serving_input_receiver_fn) instead."),
    "contrib_metrics": (
        "the compat runner provides the streaming metrics of tf.contrib.metrics that were "
        "tf.metrics calls, streaming_covariance, streaming_pearson_correlation, "
        "streaming_concat, f1_score and aggregate_metric(s|_map); for the others use "
        "tf.compat.v1.metrics or compute the metric in numpy after predict()."),
    "contrib_slim": (
        "the compat runner serves tf.contrib.slim from the tf-slim package (`import tf_slim as slim`); "
        "slim.layers, slim.initializers and slim.regularizers hold tf.contrib.layers' names, "
        "slim's parallel_reader only get_data_files."),
    "contrib_slim_nets": (
        "tf-slim's tf_slim.nets holds only TF 1.15's networks (" + ", ".join(SLIM_NETS) + "); for the others "
        "(mobilenet_v1, nasnet, inception_v4, ...) vendor tensorflow/models' research/slim `nets` package and "
        "import the network from it (`from nets import mobilenet_v1`)."),
    "contrib_framework": (
        "the compat runner provides only the global-step, checkpoint, variable-listing, nest and "
        "arg_scope helpers of tf.contrib.framework."),
    "contrib_training": (
        "the compat runner provides only HParams, checkpoints_iterator, "
        "wait_for_new_checkpoint, create_train_op, add_gradients_summaries, "
        "clip_gradient_norms(_fn) and multiply_gradients from tf.contrib.training."),
}

# ---- tf.contrib names the codemod rewrites to a helper of estimator_bridge.compat ----
# (migrate/tables/contrib.py: tf.contrib.lookup's tables, LazyAdamOptimizer, clip_gradients_by_norm,
# get_name_scope, arg_scope's deep module path, ...). The compat runner serves the same helper
# under the legacy name wherever an explicit entry above does not: one table for both sides, so a
# name the migrated file can use is never refused by the runner (they drifted apart before).
_BRIDGE_COMPAT = "estimator_bridge.compat."
CODEMOD_HELPERS = {
    legacy: "compat:" + entry.target[len(_BRIDGE_COMPAT):]
    # (tf.contrib.rnn's cells and fused cells, tf.contrib.crf: migrate/tables/rnn_cells.py, heldout5)
    # (and TF 0.12's top-level summary functions, tf.scalar_summary & co.: compat/tf0_summaries.py)
    for legacy, entry in {**CODEMOD_CONTRIB, **CODEMOD_RNN_CELLS}.items()
    if (legacy.startswith("tensorflow.contrib.") or legacy.count(".") == 1)
    and isinstance(entry, Replacement) and entry.target.startswith(_BRIDGE_COMPAT)
    and not (entry.rename_kwargs or entry.unsupported_kwargs or entry.default_args)
}
# ... and the contrib names that were current TensorFlow's own objects in TF 1.15 (tf.compat.v1's,
# contrib.stateless' tf.random functions), as the codemod renames them: tensorflow/tpu show_and_tell's
# `contrib_stateless.stateless_random_normal` stopped the runner while its migrated copy ran
CODEMOD_HELPERS.update({
    f"tensorflow.contrib.{name}": f"tf:compat.v1.{target}" for name, target in SAME_OBJECT_IN_COMPAT_V1.items()})
CODEMOD_HELPERS.update({
    legacy: "tf:" + entry.target[len("tensorflow."):] for legacy, entry in CODEMOD_CONTRIB.items()
    if legacy.startswith("tensorflow.contrib.stateless.") and isinstance(entry, Replacement)})
# ... and the contrib names the codemod rewrites to tf-slim's (contrib.framework's variable functions TF-Slim
# re-exported: `tf.contrib.framework.get_variables_to_restore(exclude=...)` before a fine-tuning restore,
# get_variables_by_name, assign_from_values, ...). tf.contrib.slim itself is served whole from tf_slim.
CODEMOD_HELPERS.update({
    legacy: "pymodule:{}:{}".format(*entry.target.rsplit(".", 1)) for legacy, entry in CODEMOD_CONTRIB.items()
    if legacy.startswith("tensorflow.contrib.") and not legacy.startswith("tensorflow.contrib.slim.")
    and isinstance(entry, Replacement) and entry.target.startswith("tf_slim.")
    and not (entry.rename_kwargs or entry.unsupported_kwargs or entry.default_args)})
# ... and under every contrib module path the codemod reads as the same module (migrate/tables/
# aliases.py: `from tensorflow.contrib.tpu.python.tpu import tpu_function` is tf.contrib.tpu's
# get_tpu_context; tensorflow/kfac ops/utils.py, heldout3)
_CONTRIB_ALIASES = {alias: canonical for alias, canonical in CODEMOD_ALIASES.items()
                    if alias.startswith("tensorflow.contrib.")}
CODEMOD_HELPERS.update({
    alias + legacy[len(canonical):]: target
    for alias, canonical in _CONTRIB_ALIASES.items()
    for legacy, target in list(CODEMOD_HELPERS.items())
    if legacy.startswith(canonical + ".") and not any(legacy.startswith(a + ".") for a in _CONTRIB_ALIASES)
})
# their module paths, so `from tensorflow.contrib.framework.python.ops.arg_scope import add_arg_scope`
# imports the module TF 1.15 had there even where an attribute of the same name is a function
CODEMOD_HELPER_MODULES = frozenset(legacy.rpartition(".")[0] for legacy in CODEMOD_HELPERS)

# ---- modules TF 1.15 had that the namespace does not provide (tf115_modules.py lists them) ----
# Importing one succeeds (a `namespace.RemovedModule`), so a program that imports it on its
# first lines but uses it only on a path it never takes still runs; using a name of it raises
# an error with the hint below (longest matching legacy module prefix wins).
REMOVED_PREFIXES = ("tensorflow.contrib", "tensorflow_estimator.python.estimator")
REMOVED_HINTS = {
    "tensorflow.contrib": "tf.contrib was removed in TF 2.0 and the compat runner has no "
        "equivalent for this name. Run `estimator-migrate` on the file: it rewrites what has an "
        "equivalent and names the rest with a finding",
    "tensorflow.contrib.slim": "the compat runner serves slim from the `tf-slim` package (`import tf_slim as slim`): "
        "its modules under tf.contrib.slim, its networks as tf.contrib.slim.nets",
    "tensorflow.contrib.seq2seq": "TensorFlow Addons has it (tfa.seq2seq)",
    "tensorflow.contrib.rnn": "the compat runner serves tf.contrib.rnn's cells (tf.nn.rnn_cell's, the projection and "
        "embedding wrappers, LSTMBlockCell/LSTMBlockFusedCell/GRUBlockCell); for the rest Keras RNN cells "
        "(tf.keras.layers.LSTMCell, ...) replace it",
    "tensorflow.contrib.opt": "TensorFlow Addons has most of it (tfa.optimizers)",
    "tensorflow.contrib.image": "TensorFlow Addons has most of it (tfa.image)",
    "tensorflow.contrib.losses": "the losses are tf.compat.v1.losses",
    "tensorflow.contrib.learn": "tf.contrib.learn was replaced by tf.estimator (estimator_bridge): "
        "Experiment(estimator, train_input_fn, eval_input_fn, train_steps=T, eval_steps=E) and its "
        "train_and_evaluate -> estimator_bridge.train_and_evaluate(estimator, "
        "estimator_bridge.TrainSpec(train_input_fn, max_steps=T), estimator_bridge.EvalSpec("
        "eval_input_fn, steps=E, throttle_secs=5)) (Experiment evaluated each new checkpoint, at most "
        "every check_interval_secs=5, and once after training); learn.RunConfig -> estimator_bridge.RunConfig; ModeKeys.INFER -> "
        "ModeKeys.PREDICT; ModelFnOps -> EstimatorSpec",
    "tensorflow.contrib.learn.python.learn.learn_runner": "learn_runner.run(experiment_fn, "
        "run_config=C, hparams=H, schedule='train_and_evaluate') -> build the Experiment's estimator "
        "with config=estimator_bridge.RunConfig(...) and call estimator_bridge.train_and_evaluate("
        "estimator, estimator_bridge.TrainSpec(train_input_fn, max_steps=T), "
        "estimator_bridge.EvalSpec(eval_input_fn, steps=E, throttle_secs=5)) (schedule 'train': estimator.train; "
        "'evaluate': estimator.evaluate)",
    "tensorflow.contrib.training": UNSUPPORTED["contrib_training"].rstrip("."),
    "tensorflow.contrib.tpu": "the compat runner provides TPUEstimator, TPUEstimatorSpec, "
        "RunConfig, TPUConfig, InputPipelineConfig and CrossShardOptimizer from tf.contrib.tpu "
        "(the bridge writes checkpoints itself: no AsyncCheckpointSaverHook)",
    "tensorflow.contrib.distribute": "use tf.distribute",
    "tensorflow.contrib.eager": "eager execution is TF 2's default; see tf.GradientTape",
    "tensorflow_estimator.python.estimator": "estimator_bridge provides Estimator, TPUEstimator, "
        "their specs, RunConfig and export; not this module",
    "tensorflow_estimator.python.estimator.canned": UNSUPPORTED["canned_estimator"],
}

# Importers whose `import tensorflow` must keep seeing the real, current TensorFlow: the
# libraries underneath the bridge. Every other importer (the script, its own modules, legacy
# libraries) sees the TF1-shaped namespace.
REAL_TENSORFLOW_IMPORTERS = frozenset({
    "tensorflow", "tensorflow_estimator", "tensorflow_hub", "tensorboard", "tf_keras", "keras",
    "absl", "numpy", "google", "ml_dtypes", "h5py", "optree", "namex", "rich", "estimator_bridge",
    "migrate", "libcst", "scipy", "sklearn", "pandas", "tensorflow_io", "tensorflow_datasets",
    "tensorflow_text", "tf2onnx", "jax", "torch", "tf_slim",
})
