"""`tf.contrib.*` helpers -> their current TensorFlow equivalents, and what has none.

The `.apply(...)` forms of batch_and_drop_remainder, map_and_batch, parallel_interleave and
shuffle_and_repeat become Dataset methods in codemods/contrib_data.py (DATASET_METHODS below);
elsewhere they map to `tf.data.experimental` where TensorFlow still has them.
"""

from migrate.tables.contrib_metrics import DELEGATED as _METRICS_DELEGATED
from migrate.tables.contrib_metrics import FROM_TF_SLIM as _METRICS_FROM_TF_SLIM
from migrate.tables.entries import Replacement, Unsupported
from migrate.tables.tf1_hooks import EARLY_STOPPING_HOOKS

# tf.contrib.data names that tf.data.experimental still provides (TF 2.21).
_DATA_EXPERIMENTAL = (
    "AUTOTUNE", "Counter", "CsvDataset", "Optional", "RandomDataset", "Reducer", "SqlDataset", "TFRecordWriter",
    "bucket_by_sequence_length", "choose_from_datasets", "copy_to_device", "dense_to_sparse_batch",
    "enumerate_dataset", "get_next_as_optional", "get_single_element", "group_by_reducer", "group_by_window",
    "ignore_errors", "make_batched_features_dataset", "make_csv_dataset", "make_saveable_from_iterator",
    "map_and_batch", "parallel_interleave", "parse_example_dataset", "prefetch_to_device", "rejection_resample",
    "sample_from_datasets", "scan", "shuffle_and_repeat", "unbatch", "unique",
)

# contrib.data function -> Dataset method that `ds.apply(fn(...))` becomes (codemods/contrib_data.py).
DATASET_METHODS = {
    "tensorflow.contrib.data.batch_and_drop_remainder": "batch",
    "tensorflow.contrib.data.padded_batch_and_drop_remainder": "padded_batch",
    "tensorflow.contrib.data.map_and_batch": "map+batch",
    "tensorflow.contrib.data.parallel_interleave": "interleave",
    "tensorflow.contrib.data.shuffle_and_repeat": "shuffle+repeat",
}

# tf.contrib.framework's arg_scope API (estimator_bridge/compat/contrib_arg_scope.py).
_ARG_SCOPE = ("arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope", "arg_scoped_arguments",
              "arg_scope_func_key")

# tf.contrib.layers' layer functions served by estimator_bridge/compat/contrib_layers.py (tf-slim's). (softmax went
# to tf.nn.softmax, the same numbers, until tensorflow/tpu mobilenet_model.py's
# `prediction_fn=tf.contrib.layers.softmax` ... `prediction_fn(logits, scope='Predictions')` failed
# migrated: TypeError, unexpected keyword argument 'scope'.)
CONTRIB_LAYERS = ("convolution", "convolution1d", "convolution2d", "convolution3d", "conv1d", "conv2d", "conv3d",
                   "convolution2d_transpose", "convolution3d_transpose", "conv2d_transpose", "conv3d_transpose",
                   "fully_connected", "linear", "relu", "relu6", "elu", "instance_norm", "max_pool2d",
                   "max_pool3d", "avg_pool2d", "avg_pool3d", "dropout", "bias_add", "flatten",
                   "one_hot_encoding", "repeat", "stack", "separable_conv2d", "separable_convolution2d",
                   "conv2d_in_plane", "convolution2d_in_plane", "softmax")

# tf.contrib.training's create_train_op and gradient helpers (estimator_bridge/compat/contrib_training.py).
_TRAIN_OP = ("create_train_op", "add_gradients_summaries", "clip_gradient_norms", "clip_gradient_norms_fn",
             "multiply_gradients")

# tf.contrib.distributions names that were tf.distributions' own objects in TF 1.15.
_CORE_DISTRIBUTIONS = (
    "Bernoulli", "Beta", "Categorical", "Dirichlet", "DirichletMultinomial", "Distribution", "Exponential",
    "FULLY_REPARAMETERIZED", "Gamma", "Laplace", "Multinomial", "NOT_REPARAMETERIZED", "Normal", "RegisterKL",
    "ReparameterizationType", "StudentT", "Uniform", "kl_divergence",
)

# TF 1.15's tpu_ops (python/tpu/ops/tpu_ops.py and the generated ops it star-imported) that TPU loops used.
_TPU_OPS = ("infeed_dequeue", "infeed_dequeue_tuple", "infeed_enqueue", "infeed_enqueue_tuple", "outfeed_dequeue",
            "outfeed_dequeue_tuple", "outfeed_enqueue", "outfeed_enqueue_tuple", "all_to_all", "collective_permute",
            "tpu_replicated_input")

# Same parameters, same order on tf.summary (TF 1.15 vs 2.21 signatures).
_SUMMARY_UNCHANGED = ("create_file_writer", "flush", "should_record_summaries", "SummaryWriter")

# tf.contrib names that TF 1.15 exported as the very object of a tf.compat.v1 name (checked with `is` on
# TF 1.15, walking tf.contrib and tf.compat.v1), which TF 2.21 still has under that name. Left out:
# the contrib.rnn cells (tf.compat.v1.nn.rnn_cell needs Keras 2), DistributionStrategy and
# ReplicaContext (tf.compat.v1.distribute's are the V1 classes: an isinstance test against the
# migrated TF 2 strategies would turn False), eager.list_devices (gone).
SAME_OBJECT_IN_COMPAT_V1 = {
    "autograph.Feature": "autograph.experimental.Feature",
    "compiler.xla.compile": "xla.experimental.compile",
    "autograph.do_not_convert": "autograph.experimental.do_not_convert",
    "autograph.set_loop_options": "autograph.experimental.set_loop_options",
    "batching.batch_function": "nondifferentiable_batch_function",
    "checkpoint.CheckpointManager": "train.CheckpointManager",
    "checkpoint.PythonStateWrapper": "train.experimental.PythonState",
    "distribute.CrossDeviceOps": "distribute.CrossDeviceOps",
    "distribute.get_distribution_strategy": "distribute.get_strategy",
    "distribute.get_loss_reduction": "distribute.get_loss_reduction",
    "distribute.has_distribution_strategy": "distribute.has_strategy",
    "eager.Checkpoint": "train.Checkpoint",
    "eager.GradientTape": "GradientTape",
    "eager.TensorSpec": "TensorSpec",
    "eager.connect_to_remote_host": "config.experimental_connect_to_host",
    "eager.custom_gradient": "custom_gradient",
    "eager.enable_eager_execution": "enable_eager_execution",
    "eager.executing_eagerly": "executing_eagerly",
    "eager.function": "function",
    "eager.py_func": "py_function",
    "framework.TensorSpec": "TensorSpec",
    "framework.argsort": "argsort",
    "framework.assert_same_float_dtype": "assert_same_float_dtype",
    "framework.assert_scalar": "assert_scalar",
    "framework.convert_to_tensor_or_sparse_tensor": "convert_to_tensor_or_sparse_tensor",
    "framework.is_tensor": "is_tensor",
    "framework.sort": "sort",
    "lookup.KeyValueTensorInitializer": "lookup.KeyValueTensorInitializer",
    "lookup.MutableDenseHashTable": "lookup.experimental.DenseHashTable",
    "lookup.TextFileIndex": "lookup.TextFileIndex",
    "lookup.TextFileInitializer": "lookup.TextFileInitializer",
    "metrics.set_difference": "sets.difference",
    "metrics.set_intersection": "sets.intersection",
    "metrics.set_size": "sets.size",
    "metrics.set_union": "sets.union",
    "nn.conv1d_transpose": "nn.conv1d_transpose",
    "proto.decode_proto": "io.decode_proto",
    "proto.encode_proto": "io.encode_proto",
    "rnn.static_bidirectional_rnn": "nn.static_bidirectional_rnn",
    "rnn.static_rnn": "nn.static_rnn",
    "rnn.static_state_saving_rnn": "nn.static_state_saving_rnn",
    "signal.frame": "signal.frame",
    "signal.hamming_window": "signal.hamming_window",
    "signal.hann_window": "signal.hann_window",
    "signal.inverse_stft": "signal.inverse_stft",
    "signal.inverse_stft_window_fn": "signal.inverse_stft_window_fn",
    "signal.linear_to_mel_weight_matrix": "signal.linear_to_mel_weight_matrix",
    "signal.mfccs_from_log_mel_spectrograms": "signal.mfccs_from_log_mel_spectrograms",
    "signal.overlap_and_add": "signal.overlap_and_add",
    "signal.stft": "signal.stft",
    "stateless.stateless_multinomial": "random.stateless_multinomial",
    "stateless.stateless_truncated_normal": "random.stateless_truncated_normal",
    "tpu.DeviceAssignment": "tpu.experimental.DeviceAssignment",
    "util.constant_value": "get_static_value",
    "util.make_ndarray": "make_ndarray",
    "util.make_tensor_proto": "make_tensor_proto",
}

CONTRIB = {
    **{f"tensorflow.contrib.data.{name}": Replacement(f"tensorflow.data.experimental.{name}")
       for name in _DATA_EXPERIMENTAL},
    # tf.contrib.tpu utilities that live on in tf.compat.v1.tpu.
    **{f"tensorflow.contrib.tpu.{name}": Replacement(f"tensorflow.compat.v1.tpu.{name}")
       for name in ("batch_parallel", "bfloat16_scope", "cross_replica_sum", "initialize_system",
                    "outside_compilation", "replicate", "rewrite", "shard", "shutdown_system")},
    # tf.contrib.summary was the TF2 summary API in waiting; `step` moved to the third position,
    # so arguments after (name, tensor) are passed by keyword (TF 1.15 signatures).
    **{f"tensorflow.contrib.summary.{name}": Replacement(f"tensorflow.summary.{name}") for name in _SUMMARY_UNCHANGED},
    "tensorflow.contrib.summary.create_summary_file_writer": Replacement("tensorflow.summary.create_file_writer"),
    "tensorflow.contrib.summary.graph": Replacement(
        "tensorflow.summary.graph", unsupported_kwargs=("step", "name"), signature=("param", "step", "name"),
        positional=1),
    **{f"tensorflow.contrib.summary.{name}": Replacement(
        f"tensorflow.summary.{name}", rename_kwargs={"tensor": "data"}, unsupported_kwargs=("family",),
        signature=("name", "tensor", "family", "step"), positional=2)
       for name in ("scalar", "histogram")},
    # Not tf.summary.image: that one clips floats to [0, 1] (values [-1, -0.5, 0, 1] became pixels
    # [0, 0, 0, 255]; TF 1.15's contrib scaled them to [1, 64, 128, 255]) and writes a tensor
    # summary, not TF1's encoded image. TF 2.21 still has contrib's own function.
    "tensorflow.contrib.summary.image": Replacement("estimator_bridge.compat.contrib_reexports.summary_image"),
    # functional_rnn had dynamic_rnn's interface and recurrence (a functional While loop): measured on
    # TF 1.15, the same outputs, states and variable names (rnn/lstm_cell/kernel); its reverse= and use_tpu=
    # have no dynamic_rnn counterpart, and dynamic_rnn's sixth parameter is parallel_iterations.
    "tensorflow.contrib.recurrent.functional_rnn": Replacement(
        "tensorflow.compat.v1.nn.dynamic_rnn", unsupported_kwargs=("use_tpu", "reverse"),
        signature=("cell", "inputs", "sequence_length", "initial_state", "dtype", "time_major", "scope",
                   "use_tpu", "reverse"), positional=5),
    "tensorflow.contrib.summary.audio": Replacement(
        "tensorflow.summary.audio", rename_kwargs={"tensor": "data"}, unsupported_kwargs=("family",),
        signature=("name", "tensor", "sample_rate", "max_outputs", "family", "step"), positional=3),
    "tensorflow.contrib.summary.always_record_summaries": Replacement("tensorflow.summary.record_if", default_args=("True",)),
    "tensorflow.contrib.summary.never_record_summaries": Replacement("tensorflow.summary.record_if", default_args=("False",)),
    "tensorflow.contrib.summary.all_summary_ops": Replacement("tensorflow.compat.v1.summary.all_v2_summary_ops"),
    "tensorflow.contrib.summary.initialize": Replacement("tensorflow.compat.v1.summary.initialize"),
    # No TensorFlow equivalent: estimator_bridge's own helpers with TF 1.15's formulas and op order
    # (bit-identical: tests/estimator_bridge/test_compat_contrib.py). Xavier
    # went to glorot_uniform_initializer before: the same draw when uniform, but contrib's
    # truncated normal (stddev sqrt(1.3 / n)) has no TF 2 spelling, so `uniform=False` and the
    # positional `xavier_initializer(True, 7)` stayed tf.contrib (MIG201; the migrated file broke).
    # l1_regularizer went to keras L1, whose scale 0.0 adds a zero loss where contrib's added none.
    **{f"tensorflow.contrib.{name}": Replacement(f"estimator_bridge.compat.contrib_helpers.{name.split('.')[-1]}")
       for name in ("training.HParams", "layers.variance_scaling_initializer", "layers.l2_regularizer",
                    "layers.l1_regularizer", "layers.xavier_initializer")},
    "tensorflow.contrib.layers.xavier_initializer_conv2d": Replacement(
        "estimator_bridge.compat.contrib_helpers.xavier_initializer"),
    # contrib.lookup's vocabulary tables: TF 1.15 re-exported two from python/ops/lookup_ops.py (TF 2.21
    # still has that code, unexported) and wrapped the rest; estimator_bridge/compat/contrib_lookup.py
    # (guillaumegenthial/tf_ner, GoogleCloudPlatform/cloudml-samples movielens: heldout3).
    **{f"tensorflow.contrib.lookup.{name}": Replacement(f"estimator_bridge.compat.contrib_lookup.{name}")
       for name in ("index_table_from_file", "index_to_string_table_from_file", "index_table_from_tensor",
                    "index_to_string_table_from_tensor", "index_to_string", "string_to_index",
                    "string_to_index_table_from_file", "string_to_index_table_from_tensor")},
    # contrib.lookup.HashTable: StaticHashTable plus contrib's shared_name=, init and export op name
    # (heldout9: alexmomeni/DeepDerm visualization.py; oracle fixture contrib/contrib_hash_table).
    "tensorflow.contrib.lookup.HashTable": Replacement("estimator_bridge.compat.contrib_lookup.HashTable"),
    # contrib.tfprof: print_model_analysis was tf.profiler.profile itself in TF 1.15 (same parameters in the
    # same order); its option dicts build the OptionsProto of ProfileOptionBuilder's presets
    # (estimator_bridge/compat/contrib_tfprof.py). heldout9: slim train_image_classifier.py forks' parameter
    # count; oracle fixture contrib/contrib_tfprof.
    "tensorflow.contrib.tfprof.model_analyzer.print_model_analysis": Replacement(
        "tensorflow.compat.v1.profiler.profile", rename_kwargs={"tfprof_cmd": "cmd", "tfprof_options": "options"}),
    **{f"tensorflow.contrib.tfprof.model_analyzer.{name}": Replacement(f"estimator_bridge.compat.contrib_tfprof.{name}")
       for name in ("TRAINABLE_VARS_PARAMS_STAT_OPTIONS", "FLOAT_OPS_OPTIONS", "PRINT_ALL_TIMING_MEMORY")},
    # TF-Slim's input helper (glob only when the name has a glob character, ValueError when nothing is
    # found), used by TPU input pipelines that use nothing else of slim: the tf-slim package's.
    **{f"tensorflow.contrib.slim.{path}get_data_files": Replacement("tf_slim.parallel_reader.get_data_files")
       for path in ("parallel_reader.", "python.slim.data.parallel_reader.")},
    # Re-exports of code TF 2.21 still ships unexported or in TensorBoard (estimator_bridge/compat/
    # contrib_reexports.py; heldout3: cloudml-samples tpu_rewrite and tpu_triplet_loss, tensorflow/kfac
    # ops/utils.py, deepmind/scalable_agent). `tensorflow.contrib.tpu.python.{ops.tpu_ops,tpu}` are
    # spelled tensorflow.contrib.tpu here (aliases.py).
    **{f"tensorflow.contrib.{name}": Replacement(f"estimator_bridge.compat.contrib_reexports.{name.split('.')[-1]}")
       for name in (*(f"tpu.{op}" for op in _TPU_OPS), "tpu.repeat", "tpu.while_loop",
                    *(f"tpu.{name}" for name in ("TpuContext", "get_tpu_context", "on_device_training_loop",
                                                 "tpu_shard_context")),
                    "staging.StagingArea", "training.StopAfterNEvalsHook", "training.evaluate_once",
                    "tensorboard.plugins.projector.ProjectorConfig",
                    "tensorboard.plugins.projector.visualize_embeddings")},
    # tf.contrib.tpu's low-level TPU loop API (TF 1.15 stubs over tensorflow/python/tpu, which TF 2.21
    # ships unexported; `...contrib.tpu.python.tpu.{tpu_feed,device_assignment,topology}` are spelled
    # tensorflow.contrib.tpu here: aliases.py): as MLPerf v0.5/v0.6's TPU "low level runners" built their
    # own infeed threads and TPU programs (heldout4: mlperf/training_results_v0.5 ssd/nmt runners, v0.6
    # resnet/mask_rcnn; oracle fixture contrib/tpu_low_level). device_assignment keeps TF 1.15's
    # assignment on TF 2's four-axis topology (compat/contrib_tpu.py). The topology is the runtime's
    # (`Topology(serialized=sess.run(initialize_system()))`). contrib.training.wait_for_new_checkpoint
    # was the code checkpoint_utils still has.
    **{f"tensorflow.contrib.tpu.{name}": Replacement(f"estimator_bridge.compat.contrib_reexports.{target}")
       for name, target in (("InfeedQueue", "InfeedQueue"), ("_PartitionedInfeedQueue", "PartitionedInfeedQueue"),
                            ("split_compile_and_shard", "split_compile_and_shard"))},
    "tensorflow.contrib.tpu.device_assignment": Replacement("estimator_bridge.compat.contrib_tpu.device_assignment"),
    "tensorflow.contrib.tpu.DeviceAssignment": Replacement("tensorflow.tpu.experimental.DeviceAssignment"),
    "tensorflow.contrib.tpu.Topology": Replacement("tensorflow.tpu.experimental.Topology"),
    "tensorflow.contrib.training.wait_for_new_checkpoint": Replacement(
        "estimator_bridge.compat.contrib_reexports.wait_for_new_checkpoint"),
    # TF 1.15's contrib code is tf.compat.v1.nn's line for line: only its combiner=None default (then
    # 'mean', tf.compat.v1.nn's default) and a float-dtype assertion differ (cloudml-samples movielens,
    # heldout3; oracle fixture contrib/safe_embedding_lookup).
    "tensorflow.contrib.layers.safe_embedding_lookup_sparse": Replacement(
        "tensorflow.compat.v1.nn.safe_embedding_lookup_sparse",
        signature=("embedding_weights", "sparse_ids", "sparse_weights", "combiner", "default_id", "name",
                   "partition_strategy", "max_norm"), positional=8),
    # TF 1.15's pure-Python regex filter over variable names (tensorflow/moonlight, heldout3).
    "tensorflow.contrib.framework.filter_variables": Replacement(
        "estimator_bridge.compat.contrib_helpers.filter_variables"),
    # contrib.framework's variable functions (tensorflow/tpu AmoebaNet's hand-written batch_norm creates its
    # parameters with contrib_framework.variable; its LoadEMAHook restores the averages with
    # assign_from_checkpoint_fn): tf-slim's, arg-scoped (compat/contrib_variables.py; oracle fixture
    # contrib/contrib_variables, real pattern amoeba_ema_hook.py).
    **{f"tensorflow.contrib.framework.{name}": Replacement(f"estimator_bridge.compat.contrib_variables.{name}")
       for name in ("variable", "model_variable", "local_variable", "global_variable", "add_model_variable",
                    "assign_from_checkpoint_fn")},
    "tensorflow.contrib.framework.get_or_create_global_step": Replacement("tensorflow.compat.v1.train.get_or_create_global_step"),
    "tensorflow.contrib.framework.get_global_step": Replacement("tensorflow.compat.v1.train.get_global_step"),
    # TF 1.15's MirroredStrategy(devices, num_gpus, num_gpus_per_worker, cross_device_ops, ...).
    "tensorflow.contrib.distribute.MirroredStrategy": Replacement(
        "tensorflow.distribute.MirroredStrategy", rename_kwargs={"cross_tower_ops": "cross_device_ops"},
        unsupported_kwargs=("num_gpus", "num_gpus_per_worker", "auto_shard_dataset"),
        signature=("devices", "num_gpus", "num_gpus_per_worker", "cross_device_ops", "auto_shard_dataset",
                   "cross_tower_ops"), positional=1),
    "tensorflow.contrib.distribute.OneDeviceStrategy": Replacement("tensorflow.distribute.OneDeviceStrategy"),
    "tensorflow.contrib.distribute.get_replica_context": Replacement("tensorflow.distribute.get_replica_context"),
    "tensorflow.contrib.distribute.get_strategy": Replacement("tensorflow.distribute.get_strategy"),
    "tensorflow.contrib.distribute.has_strategy": Replacement("tensorflow.distribute.has_strategy"),
    "tensorflow.contrib.distribute.in_cross_replica_context": Replacement("tensorflow.distribute.in_cross_replica_context"),
    # TF 1.14/1.15's tf.contrib.distribute re-exported these two (tensorflow/tpu mnist_keras). TF 2.x's
    # initialize_tpu_system needs tf.config.experimental_connect_to_cluster(resolver) first for a remote
    # TPU (NotFoundError without): the helper connects, then initialises.
    "tensorflow.contrib.distribute.initialize_tpu_system": Replacement(
        "estimator_bridge.compat.tpu_system.initialize_tpu_system"),
    "tensorflow.contrib.distribute.TPUStrategy": Replacement(
        "tensorflow.distribute.TPUStrategy", rename_kwargs={"device_assignment": "experimental_device_assignment"},
        unsupported_kwargs=("steps_per_run",), signature=("tpu_cluster_resolver", "steps_per_run", "device_assignment"),
        positional=1),
    "tensorflow.distribute.experimental.TPUStrategy": Replacement(
        "tensorflow.distribute.TPUStrategy", rename_kwargs={"device_assignment": "experimental_device_assignment"},
        unsupported_kwargs=("steps_per_run",), signature=("tpu_cluster_resolver", "steps_per_run", "device_assignment"),
        positional=1),
    "tensorflow.contrib.training.checkpoints_iterator": Replacement("tensorflow.train.checkpoints_iterator"),
    "tensorflow.contrib.stateless.stateless_random_normal": Replacement("tensorflow.random.stateless_normal"),
    "tensorflow.contrib.stateless.stateless_random_uniform": Replacement("tensorflow.random.stateless_uniform"),
    # (tf.contrib.rnn cells have no target: tf.compat.v1.nn.rnn_cell needs Keras 2 -> MIG301.)
    # contrib's layer_norm, bit-identical on current TF with its TF1 variable names (LayerNorm/beta, /gamma).
    "tensorflow.contrib.layers.layer_norm": Replacement("estimator_bridge.layers.layer_norm"),
    # contrib.layers' layer functions: tf-slim's (the maintained extraction), with contrib's
    # scopes and variable names (Conv/weights, InstanceNorm/beta, ...), defaults (relu, xavier)
    # and normalizer_fn/arg_scope support (estimator_bridge/compat/contrib_layers.py; tensorflow/tpu
    # unet3d's conv3d/conv3d_transpose/max_pool3d/instance_norm; oracle fixture contrib/contrib_layers).
    **{f"tensorflow.contrib.layers.{name}": Replacement(f"estimator_bridge.compat.contrib_layers.{name}")
       for name in CONTRIB_LAYERS},
    # contrib.layers.batch_norm: TF 1.15's three paths (core layer, _fused_batch_norm, legacy) with
    # its BatchNorm/ names and UPDATE_OPS or in-place updates (compat/contrib_batch_norm.py; oracle
    # fixture contrib/contrib_batch_norm; 2018-style ResNets' batch_norm(is_training=...)).
    "tensorflow.contrib.layers.batch_norm": Replacement("estimator_bridge.compat.contrib_batch_norm.batch_norm"),
    "tensorflow.contrib.framework.nest": Replacement("tensorflow.nest"),
    # TF 2 renamed nest's is_sequence to is_nested (the same C++ check: lists, tuples, dicts,
    # namedtuples, attrs; not strings, sets or tensors; measured on TF 1.15 and 2.21).
    "tensorflow.contrib.framework.nest.is_sequence": Replacement("tensorflow.nest.is_nested"),
    # contrib.framework's checkpoint utilities: in TF 1.15 they were tf.train's (checkpoint_utils) under
    # other parameter names.
    "tensorflow.contrib.framework.list_variables": Replacement(
        "tensorflow.train.list_variables", rename_kwargs={"checkpoint_dir": "ckpt_dir_or_file"}),
    "tensorflow.contrib.framework.load_checkpoint": Replacement(
        "tensorflow.train.load_checkpoint", rename_kwargs={"filepattern": "ckpt_dir_or_file"}),
    "tensorflow.contrib.framework.load_variable": Replacement(
        "tensorflow.train.load_variable", rename_kwargs={"checkpoint_dir": "ckpt_dir_or_file"}),
    # TF 1.15: tf.contrib.eager.in_eager_mode is tf.executing_eagerly (the same function object).
    "tensorflow.contrib.eager.in_eager_mode": Replacement("tensorflow.executing_eagerly"),
    # tf.contrib.metrics: the bridge's wrappers over tf.compat.v1.metrics in contrib's parameter order
    # (tf.compat.v1.metrics puts labels first), and tf-slim's covariance, Pearson, concat and F1.
    **{f"tensorflow.contrib.metrics.{name}": Replacement(f"estimator_bridge.compat.contrib_metrics.{name}")
       for name in (*_METRICS_DELEGATED, *_METRICS_FROM_TF_SLIM)},
    # arg_scope/add_arg_scope: tf-slim's (no TF 2 equivalent). The
    # deep paths: `from tensorflow.contrib.framework.python.ops import arg_scope` named the
    # function (ops/__init__ star-imports it over the submodule), as does `...ops.arg_scope.arg_scope`.
    **{f"{prefix}.{name}": Replacement(f"estimator_bridge.compat.contrib_arg_scope.{name}")
       for prefix in ("tensorflow.contrib.framework", "tensorflow.contrib.framework.python.ops",
                      "tensorflow.contrib.framework.python.ops.arg_scope")
       for name in _ARG_SCOPE},
    # create_train_op and its gradient helpers: tf-slim's (same signatures; the
    # train_op is the loss after UPDATE_OPS and apply_gradients, as in TF 1.15).
    **{f"tensorflow.contrib.training.{name}": Replacement(f"estimator_bridge.compat.contrib_training.{name}")
       for name in _TRAIN_OP},
    # TF 1.15's tf.contrib.keras re-exported tf.keras (same names; Keras 3 behind it now).
    "tensorflow.contrib.keras": Replacement("tensorflow.keras"),
    # TF 1.15's tf.contrib.distributions re-exported these core distributions: the very objects of
    # tf.distributions (checked `is` on TF 1.15), which TF 2.21 still has as tf.compat.v1.distributions
    # (the same code; the rest of contrib.distributions moved to TensorFlow Probability: MIG301).
    **{f"tensorflow.contrib.distributions.{name}": Replacement(f"tensorflow.compat.v1.distributions.{name}")
       for name in _CORE_DISTRIBUTIONS},
    # contrib.framework.get_name_scope: the default graph's name scope (a one-line helper of the bridge;
    # tf.get_current_name_scope differs in eager code).
    "tensorflow.contrib.framework.get_name_scope": Replacement("estimator_bridge.compat.contrib_helpers.get_name_scope"),
    # tf.contrib.framework.CriticalSection (TF 1.6-1.13) became tf.CriticalSection (the same class,
    # critical_section_ops.CriticalSection), which TF 2.21 has.
    "tensorflow.contrib.framework.CriticalSection": Replacement("tensorflow.CriticalSection"),
    # Optimizers without a TensorFlow equivalent: the bridge's own tf.compat.v1.train optimizers on TF's
    # update kernels (oracle fixtures contrib/contrib_equivalents, contrib/nadam).
    # TF 1.10-1.12's early-stopping hooks (tf.estimator.experimental's from TF 1.13): the bridge's own,
    # reading the eval folder's summaries (compat/early_stopping.py; oracle test test_early_stopping.py)
    **{f"tensorflow.contrib.estimator.{name}": Replacement(f"estimator_bridge.compat.early_stopping.{name}")
       for name in EARLY_STOPPING_HOOKS},
    "tensorflow.contrib.estimator.clip_gradients_by_norm": Replacement(
        "estimator_bridge.compat.contrib_optimizers.clip_gradients_by_norm"),
    "tensorflow.contrib.opt.LazyAdamOptimizer": Replacement("estimator_bridge.compat.contrib_optimizers.LazyAdamOptimizer"),
    "tensorflow.contrib.opt.NadamOptimizer": Replacement("estimator_bridge.compat.contrib_optimizers.NadamOptimizer"),
    # LARS (large-batch TPU ResNets; heldout4: MLPerf v0.6 resnet lars_util.py): no TensorFlow, Keras or
    # tensorflow-addons equivalent; the bridge's own (oracle fixture contrib/lars).
    "tensorflow.contrib.opt.LARSOptimizer": Replacement("estimator_bridge.compat.contrib_optimizers.LARSOptimizer"),
    # contrib.image's projective transforms: the bridge's own, over the kernel TF 2.21 has as
    # tf.raw_ops.ImageProjectiveTransformV2 (compat/contrib_image.py; tensorflow/moonlight glyph_patches.py,
    # heldout3; tensorflow/lucid optvis/transform.py, heldout4; oracle fixture contrib/contrib_image).
    **{f"tensorflow.contrib.image.{name}": Replacement(f"estimator_bridge.compat.contrib_image.{name}")
       for name in ("rotate", "translate", "transform", "angles_to_projective_transforms",
                    "translations_to_projective_transforms")},
    **{f"tensorflow.contrib.{name}": Replacement(f"tensorflow.compat.v1.{target}")
       for name, target in SAME_OBJECT_IN_COMPAT_V1.items()},
}

# TF-Slim's layers and framework helpers were tf.contrib.layers' and tf.contrib.framework's own objects:
# contrib/slim/__init__.py star-imported contrib.layers (with its initializers and regularizers) and
# contrib.framework's arg_scope and variables modules (measured on TF 1.15: `tf.contrib.slim.X is
# tf.contrib.layers.X` for every name below, and likewise for contrib.framework). So `slim.conv2d`,
# `slim.arg_scope`, `slim.fully_connected`, ... take exactly the rewrite of the contrib name, where it has
# one (heldout4: google-research/batch_rl atari_helpers.py / quantile_agent.py, tensorflow/lucid cppn.py);
# the rest of slim (learning, nets, losses, metrics, data, evaluation, ...) is the tf-slim package's
# (tf.contrib.slim's maintained extraction, pinned in pyproject.toml; tensorflow/tpu show_and_tell's
# inception_v3_base), as is contrib.layers' summaries module.
_SLIM_FROM_LAYERS = (
    "avg_pool2d", "avg_pool3d", "batch_norm", "bias_add", "conv1d", "conv2d", "conv2d_in_plane", "conv2d_transpose",
    "conv3d", "conv3d_transpose", "convolution", "convolution1d", "convolution2d", "convolution2d_in_plane",
    "convolution2d_transpose", "convolution3d", "convolution3d_transpose", "dropout", "elu", "flatten",
    "fully_connected", "instance_norm", "l1_regularizer", "l2_regularizer", "layer_norm", "linear", "max_pool2d",
    "max_pool3d", "one_hot_encoding", "relu", "relu6", "repeat", "safe_embedding_lookup_sparse", "separable_conv2d",
    "separable_convolution2d", "softmax", "stack", "variance_scaling_initializer", "xavier_initializer",
    "xavier_initializer_conv2d")
_SLIM_FROM_FRAMEWORK = (
    *_ARG_SCOPE, "add_model_variable", "filter_variables", "get_global_step", "get_local_variables",
    "get_model_variables", "get_or_create_global_step", "get_trainable_variables", "get_variables",
    "global_variable", "local_variable", "model_variable", "variable", "assign_from_checkpoint_fn")
# The networks tf.contrib.slim.nets held (TF 1.15's contrib/slim/python/slim/nets), each a module of tf_slim.nets.
SLIM_NETS = ("alexnet", "inception", "inception_v1", "inception_v2", "inception_v3", "overfeat", "resnet_utils",
             "resnet_v1", "resnet_v2", "vgg")
# TF-Slim's own modules and the functions it defined beyond contrib.layers' and contrib.framework's
# (TF 1.15's contrib/slim/__init__.py; tf-slim 1.1.0 holds each under the same name). Listed, not the
# package as a whole, so `from tensorflow.contrib import slim` goes once its uses are rewritten.
SLIM_PACKAGE_NAMES = (
    "data", "data_decoder", "data_provider", "dataset", "dataset_data_provider", "evaluation", "learning",
    "losses", "metrics", "model_analyzer", "parallel_reader", "prefetch_queue", "queues", "summaries",
    "tfexample_decoder", "VariableDeviceChooser", "assert_global_step", "assert_or_get_global_step",
    "assign_from_checkpoint", "assign_from_values", "assign_from_values_fn", "create_global_step",
    "get_unique_variable", "get_variable_full_name", "get_variables_by_name", "get_variables_by_suffix",
    "get_variables_to_restore", "legacy_fully_connected", "legacy_linear", "legacy_relu", "l1_l2_regularizer",
    "sum_regularizer", "apply_regularization", "optimize_loss", "unit_norm", "maxout", "group_norm", "gdn",
    "GDN", "images_to_sequence", "sequence_to_images", "spatial_softmax", "pool", "dense_to_sparse",
    "bucketize", "scale_gradient", "recompute_grad", "rev_block", "RevBlock", "adaptive_clipping_fn",
    "summarize_activation", "summarize_activations", "summarize_biases", "summarize_collection",
    "summarize_tensor", "summarize_tensors", "summarize_variables", "summarize_weights")
# One entry per network, none for the package: a name under tf.contrib.slim.nets that tf_slim.nets lacks
# (mobilenet_v1, nasnet, inception_v4: tensorflow/models research/slim's nets) is reported (MIG301, UNSUPPORTED
# below), never rewritten to a tf_slim module that does not exist.
CONTRIB.update({f"tensorflow.contrib.slim.nets.{net}": Replacement(f"tf_slim.nets.{net}") for net in SLIM_NETS})
CONTRIB.update({
    # (tf_slim's own `layers` attribute is its layers.layers module: the summaries are top-level names there)
    "tensorflow.contrib.layers.summaries": Replacement("tf_slim"),
    # slim.utils was contrib.layers' utils module (last_dimension, collect_named_outputs,
    # convert_collection_to_dict: research/slim nets/resnet_v2.py forks, heldout9): tf-slim's layers.utils
    "tensorflow.contrib.slim.utils": Replacement("tf_slim.layers.utils"),
})
# A name contrib rewrites by a codemod of its own rather than a table entry (framework's get_variables,
# get_model_variables, get_trainable_variables, get_local_variables: argument-dependent rewrites to
# tf.compat.v1's collections) is tf-slim's under slim (tf_slim.variables: TF 1.15's
# contrib/framework/python/ops/variables.py, extracted; youtube-8m train.py's
# `slim.get_model_variables()`, morph-net's examples/slim/train_image_classifier.py).
CONTRIB.update({f"tensorflow.contrib.slim.{name}": CONTRIB.get(f"tensorflow.contrib.{module}.{name}",
                                                                Replacement(f"tf_slim.{name}"))
                for module, names in (("layers", _SLIM_FROM_LAYERS), ("framework", _SLIM_FROM_FRAMEWORK))
                for name in names})
CONTRIB.update({f"tensorflow.contrib.slim.{name}": Replacement(f"tf_slim.{name}") for name in SLIM_PACKAGE_NAMES
                if f"tensorflow.contrib.slim.{name}" not in CONTRIB})

# contrib.framework's variables module is the one TF-Slim re-exported (TF 1.15: `tf.contrib.framework.X is
# tf.contrib.slim.X` for each name below, all defined in contrib/framework/python/ops/variables.py), so the
# framework spelling takes the slim spelling's rewrite, tf-slim's (research/slim deployment/model_deploy_test.py's
# `tf.contrib.framework.get_variables_by_name`, heldout9). Names with a rewrite of their own keep it.
_FRAMEWORK_VARIABLES_IN_SLIM = (
    "assert_global_step", "assert_or_get_global_step", "assign_from_checkpoint", "assign_from_values",
    "assign_from_values_fn", "create_global_step", "get_unique_variable", "get_variable_full_name",
    "get_variables_by_name", "get_variables_by_suffix", "get_variables_to_restore", "VariableDeviceChooser")
CONTRIB.update({f"tensorflow.contrib.framework.{name}": CONTRIB[f"tensorflow.contrib.slim.{name}"]
                for name in _FRAMEWORK_VARIABLES_IN_SLIM if f"tensorflow.contrib.framework.{name}" not in CONTRIB})

# TF 0.12's summary functions (tags written as given, not as names under the name scopes as TF 1.0's
# tf.summary.* write them): TF 1.15's tf.contrib.deprecated.X is TF 2.21's unexported logging_ops.X
# (measured), served by estimator_bridge.compat.tf0_summaries; the TF 0.12 spellings tf.X are the same
# functions (heldout9: SignalImageCV/SDC-Traffic-Signs eval_image_classifier.py's tf.scalar_summary).
TF0_SUMMARIES = ("scalar_summary", "histogram_summary", "image_summary", "audio_summary", "merge_summary",
                 "merge_all_summaries")
CONTRIB.update({f"tensorflow.{prefix}{name}": Replacement(f"estimator_bridge.compat.tf0_summaries.{name}")
                for name in TF0_SUMMARIES for prefix in ("", "contrib.deprecated.")})

# contrib.layers' optimizers module (TF 1.15's contrib/layers/python/layers/optimizers.py) is tf-slim's
# layers/optimizers.py, exported at tf_slim's top: `tf.contrib.layers.optimize_loss(loss, global_step,
# learning_rate, optimizer="Adam")` in training-data-analyst's 2018 MNIST model_fn, and its tables.
_LAYERS_OPTIMIZERS_IN_SLIM = ("optimize_loss", "OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "adaptive_clipping_fn")
CONTRIB.update({f"tensorflow.contrib.layers.{name}": Replacement(f"tf_slim.{name}")
                for name in _LAYERS_OPTIMIZERS_IN_SLIM})
# The rest of contrib.layers' functions that TF-Slim re-exported: in TF 1.15 `tf.contrib.layers.X is
# tf.contrib.slim.X` for each name below (measured), so the layers spelling takes the slim spelling's rewrite,
# tf-slim's (heldout10: jzhugithub/study_tensorflow cnn_mnist.py's optimize_loss led here).
_LAYERS_FUNCTIONS_IN_SLIM = (
    "legacy_fully_connected", "legacy_linear", "legacy_relu", "l1_l2_regularizer", "sum_regularizer",
    "apply_regularization", "unit_norm", "maxout", "group_norm", "gdn", "GDN",
    "images_to_sequence", "sequence_to_images", "spatial_softmax", "dense_to_sparse", "scale_gradient",
    "recompute_grad", "rev_block", "RevBlock", "summarize_activation", "summarize_activations",
    "summarize_collection", "summarize_tensor", "summarize_tensors")
CONTRIB.update({f"tensorflow.contrib.layers.{name}": CONTRIB[f"tensorflow.contrib.slim.{name}"]
                for name in _LAYERS_FUNCTIONS_IN_SLIM if f"tensorflow.contrib.layers.{name}" not in CONTRIB})

_NO_EQUIVALENT_HINT = "see the TF 2 migration guide for the replacement, or keep this file on TensorFlow 1.15"

UNSUPPORTED = {
    # create_training_graph / create_eval_graph (and their experimental_ forms) rewrote the TF1 graph in
    # place, inserting FakeQuant ops after weights and activations (heldout9: research/slim
    # eval_image_classifier.py, nets/mobilenet_v1_train.py). No TensorFlow 2.21 API rewrites a graph so:
    # the hint (migrate/tables/hints.py) names what replaced it.
    "tensorflow.contrib.quantize": Unsupported(
        "MIG301", "`{name}` rewrote the TF1 graph with fake-quantization ops (quantization-aware training for "
        "8-bit TFLite); TensorFlow 2.21 has no graph rewriter for it, so the call is left as written",
        _NO_EQUIVALENT_HINT),
    "tensorflow.contrib.tpu.keras_to_tpu_model": Unsupported(
        "MIG203", "`{name}` needs the model built and compiled inside tf.distribute.TPUStrategy.scope()",
        "resolver = tf.distribute.cluster_resolver.TPUClusterResolver(...); "
        "tf.config.experimental_connect_to_cluster(resolver); tf.tpu.experimental.initialize_tpu_system(resolver); "
        "strategy = tf.distribute.TPUStrategy(resolver); with strategy.scope(): build and compile the model "
        "(compile(steps_per_execution=...))"),
    "tensorflow.contrib.tpu.TPUDistributionStrategy": Unsupported(
        "MIG203", "`{name}` belongs to keras_to_tpu_model; use tf.distribute.TPUStrategy",
        "strategy = tf.distribute.TPUStrategy(resolver) and build/compile the Keras model in strategy.scope()"),
    "tensorflow.contrib.slim": Unsupported(
        "MIG302", "`{name}` (TF-Slim) is not rewritten here: TF-Slim lives on as the tf-slim package",
        "use `import tf_slim as slim` (a dependency of estimator-bridge: TF-Slim's layers, arg_scope, variables, "
        "training, losses, metrics, data and networks as tf_slim.nets); the slim names rewritten in this file "
        "already use it"),
    "tensorflow.contrib.slim.nets": Unsupported(
        "MIG301", "`{name}`: tf-slim's tf_slim.nets holds only TF 1.15's networks (" + ", ".join(SLIM_NETS) + ")",
        "vendor tensorflow/models' research/slim `nets` package (mobilenet_v1, mobilenet/mobilenet_v2, nasnet, "
        "pnasnet, inception_v4, inception_resnet_v2, cifarnet, lenet, nets_factory, ...; its current version "
        "imports tf_slim) and import the network from it: `from nets import mobilenet_v1`"),
    "tensorflow.contrib": Unsupported(
        "MIG301", "`{name}` was removed with tf.contrib and has no equivalent that migrate knows", _NO_EQUIVALENT_HINT),
    "tensor2tensor": Unsupported(
        "MIG303", "`{name}`: tensor2tensor is not migrated (a TF1-era library, deprecated and archived); its "
        "models, layers and trainer build TF1 graphs with tf.contrib",
        "its pure-Python helpers (text_encoder, tokenizer, registry) keep working where tensor2tensor itself still "
        "imports; port models and training code to Keras (or trax), or keep this file on TensorFlow 1.15"),
}
