"""The public API of `estimator_bridge` that rewrites may target (names relative to the package).

One table for every codemod that writes `estimator_bridge.X`; tests/migrate/test_tables.py checks
each name with `hasattr` against the installed bridge (and lists the ones not shipped yet).
"""

from migrate.tables.contrib import CONTRIB_LAYERS
from migrate.tables.contrib_metrics import DELEGATED as _METRICS_DELEGATED
from migrate.tables.contrib_metrics import FROM_TF_SLIM as _METRICS_FROM_TF_SLIM
from migrate.tables.rnn_cells import CONTRIB_WRAPPERS as _RNN_CONTRIB_WRAPPERS
from migrate.tables.rnn_cells import BLOCK_CELLS as _RNN_BLOCK_CELLS
from migrate.tables.rnn_cells import CORE_CELLS as _RNN_CORE_CELLS
from migrate.tables.rnn_cells import CRF as _CRF
from migrate.tables.rnn_cells import MNIST_INPUT_DATA as _MNIST_INPUT_DATA
from migrate.tables.tf1_hooks import SHIPPED_BY_BRIDGE

BRIDGE_API = frozenset({
    # estimators and their configuration
    "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig",
    "CrossShardOptimizer", "Estimator", "EstimatorSpec", "ModeKeys", "ModeKeys.PREDICT", "WarmStartSettings",
    "TPUClusterResolver", "VocabInfo", "model_to_estimator",
    # train_and_evaluate, its specs and exporters
    "TrainSpec", "EvalSpec", "train_and_evaluate", "Exporter", "LatestExporter", "FinalExporter",
    "BestExporter",
    # export
    "export.ServingInputReceiver", "export.TensorServingInputReceiver", "export.ExportOutput",
    "export.PredictOutput", "export.ClassificationOutput", "export.RegressionOutput",
    "export.build_raw_serving_input_receiver_fn", "export.build_parsing_serving_input_receiver_fn",
    # hooks
    *SHIPPED_BY_BRIDGE,
    # TF1 layers (Keras 3 removed tf.compat.v1.layers)
    *(f"layers.{name}" for name in (
        "dense", "dropout", "flatten", "batch_normalization", "layer_norm",
        "conv1d", "conv2d", "conv3d", "separable_conv2d", "conv2d_transpose", "conv3d_transpose",
        "max_pooling1d", "max_pooling2d", "max_pooling3d", "average_pooling1d", "average_pooling2d",
        "average_pooling3d",
        "Dense", "Dropout", "Flatten", "BatchNormalization",
        "Conv1D", "Conv2D", "Conv3D", "SeparableConv2D", "Conv2DTranspose",
        "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D", "AveragePooling2D", "AveragePooling3D",
        "Layer", "InputSpec")),
    # tf.contrib helpers without a TensorFlow equivalent (TF 1.15's arithmetic, oracle-tested)
    "compat.contrib_helpers.HParams", "compat.contrib_helpers.variance_scaling_initializer",
    "compat.contrib_helpers.l2_regularizer", "compat.contrib_helpers.l1_regularizer",
    "compat.contrib_helpers.xavier_initializer",
    "compat.contrib_helpers.load_global_step_from_checkpoint_dir", "compat.contrib_helpers.get_name_scope",
    "compat.contrib_helpers.filter_variables",
    "compat.contrib_learn.replace_monitors_with_hooks",
    # TF 1.x's early-stopping hooks (tf.estimator.experimental / tf.contrib.estimator, oracle-tested)
    *(f"compat.early_stopping.{name}" for name in (
        "stop_if_higher_hook", "stop_if_lower_hook", "stop_if_no_increase_hook", "stop_if_no_decrease_hook",
        "make_early_stopping_hook")),
    # tf.contrib.framework's variable functions (tf-slim's, oracle-tested)
    *(f"compat.contrib_variables.{name}" for name in (
        "variable", "model_variable", "local_variable", "global_variable", "add_model_variable",
        "assign_from_checkpoint_fn")),
    *(f"compat.contrib_lookup.{name}" for name in (
        "index_table_from_file", "index_to_string_table_from_file", "index_table_from_tensor",
        "index_to_string_table_from_tensor", "index_to_string", "string_to_index",
        "string_to_index_table_from_file", "string_to_index_table_from_tensor", "HashTable")),
    # tf.contrib.tfprof.model_analyzer's option constants (ProfileOptionBuilder presets, oracle-tested)
    *(f"compat.contrib_tfprof.{name}" for name in (
        "TRAINABLE_VARS_PARAMS_STAT_OPTIONS", "FLOAT_OPS_OPTIONS", "PRINT_ALL_TIMING_MEMORY")),
    # tf.contrib re-exports of code TF 2.21 ships unexported or in TensorBoard (oracle-tested)
    *(f"compat.contrib_reexports.{name}" for name in (
        "ProjectorConfig", "visualize_embeddings", "StagingArea", "all_to_all", "collective_permute",
        "infeed_dequeue", "infeed_dequeue_tuple", "infeed_enqueue", "infeed_enqueue_tuple", "outfeed_dequeue",
        "outfeed_dequeue_tuple", "outfeed_enqueue", "outfeed_enqueue_tuple", "tpu_replicated_input",
        "TpuContext", "get_tpu_context", "on_device_training_loop", "tpu_shard_context", "repeat", "while_loop",
        "StopAfterNEvalsHook", "evaluate_once", "split_compile_and_shard", "InfeedQueue",
        "PartitionedInfeedQueue", "wait_for_new_checkpoint", "summary_image")),
    # Keras 3's BatchNormalization with Keras 2's moving variance (oracle-tested)
    "compat.keras_batch_norm.BatchNormalization",
    # Keras 2 backend functions and utilities for Keras 3 code (migrate/tables/keras.py), contrib's
    # initialize_tpu_system with its connect_to_cluster
    "compat.keras2_backend.sqrt", "compat.keras2_backend.expand_dims", "compat.keras2_backend.argmax",
    "compat.keras2_backend.argmin", "compat.keras2_backend.concatenate", "compat.keras2_backend.int_shape", "compat.keras2_backend.cast",
    "compat.keras2_utils.print_summary", "compat.tpu_system.initialize_tpu_system",
    # Keras 2's ImageDataGenerator whose flows Keras 3's fit takes (oracle-tested)
    "compat.keras2_image.ImageDataGenerator",
    # Keras 2's DenseFeatures (feature columns) as a Keras 3 layer (oracle-tested)
    "compat.keras_dense_features.DenseFeatures",
    # tf.contrib.tpu's device_assignment with TF 1.15's assignment (oracle-tested)
    "compat.contrib_tpu.device_assignment",
    # tf.contrib's optimizers (our tf.compat.v1.train optimizers on TF's kernels, oracle-tested)
    "compat.contrib_optimizers.clip_gradients_by_norm", "compat.contrib_optimizers.LazyAdamOptimizer",
    "compat.contrib_optimizers.NadamOptimizer", "compat.contrib_optimizers.LARSOptimizer",
    # tf.contrib.image's projective transforms (on the core kernel, oracle-tested)
    *(f"compat.contrib_image.{name}" for name in (
        "rotate", "translate", "transform", "angles_to_projective_transforms", "translations_to_projective_transforms")),
    # tf.contrib.layers' layer functions (tf-slim's, oracle-tested)
    *(f"compat.contrib_layers.{name}" for name in CONTRIB_LAYERS),
    "compat.contrib_batch_norm.batch_norm",
    # tf.contrib.framework's arg_scope (tf-slim's)
    *(f"compat.contrib_arg_scope.{name}" for name in (
        "arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope", "arg_scoped_arguments",
        "arg_scope_func_key")),
    # tf.contrib.training's create_train_op and gradient helpers (tf-slim's, oracle-tested)
    *(f"compat.contrib_training.{name}" for name in (
        "create_train_op", "add_gradients_summaries", "clip_gradient_norms", "clip_gradient_norms_fn",
        "multiply_gradients")),
    # tf.contrib.metrics (TF 1.15's streaming metrics, oracle-tested)
    *(f"compat.contrib_metrics.{name}" for name in (*_METRICS_DELEGATED, *_METRICS_FROM_TF_SLIM)),
    # tf.nn.rnn_cell / tf.contrib.rnn cells (the TF 1.15 cells TF 2.21 ships; contrib's wrappers implemented; oracle-tested)
    *(f"compat.rnn_cell.{name}" for name in (*_RNN_CORE_CELLS, *_RNN_CONTRIB_WRAPPERS, "LayerRNNCell")),
    # tf.contrib.crf (the bridge's CRF on TF 2.21's ops, oracle-tested)
    *(f"compat.contrib_crf.{name}" for name in _CRF),
    # tf.contrib.rnn's fused cells (the bridge's classes on TF 2.21's core kernels, oracle-tested)
    *(f"compat.contrib_rnn_block.{name}" for name in _RNN_BLOCK_CELLS),
    # TF 1.x tutorials' MNIST reader (oracle-tested)
    *(f"compat.mnist_input_data.{name}" for name in _MNIST_INPUT_DATA),
    # TF 0.12's summary functions, TF 1.15's tf.contrib.deprecated (TF 2.21's logging_ops, oracle-tested)
    *(f"compat.tf0_summaries.{name}" for name in (
        "scalar_summary", "histogram_summary", "image_summary", "audio_summary", "merge_summary",
        "merge_all_summaries")),
})
