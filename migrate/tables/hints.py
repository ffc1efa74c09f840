"""Exact replacements to name in findings, for names that are reported rather than rewritten.

Keys are canonical names (see aliases.py: `tensorflow.compat.v1.X` is `tensorflow.X`,
`tensorflow.keras` is `keras`); the longest matching prefix wins. A hint here says what to write
instead, or what the program loses when there is nothing to write; it never says "see the guide".
"""

from __future__ import annotations

from migrate.resolve import canonical, longest_prefix

_RNN = ("tf.keras.layers.LSTMCell / GRUCell / SimpleRNNCell in tf.keras.layers.RNN (other variable names: "
        "old checkpoints need a name map), or install tf_keras and set TF_USE_LEGACY_KERAS=1 to keep TF1 cells")

HINTS = {
    # modules that moved or went
    "tensorflow.gfile": "tf.io.gfile (exists, makedirs, glob, GFile: lower-case names) or tf.compat.v1.gfile.<Name>",
    "tensorflow.examples.tutorials.mnist": "tf.keras.datasets.mnist.load_data() (numpy arrays instead of the "
                                           "DataSet objects read_data_sets returned: batch them with tf.data)",
    "tensorflow.layers": "estimator_bridge.layers.<name> (dense, conv2d, batch_normalization, ... with TF1's "
                         "variable names)",
    "tensorflow.nn.rnn_cell": _RNN,
    "tensorflow.contrib.rnn": _RNN,
    "tensorflow.contrib.cudnn_rnn": _RNN,
    **{f"tensorflow.contrib.framework.get_{name}": (
        f"tf.compat.v1.{target}(scope) for a scope that is a string or None (rewritten when it is a "
        f"literal; a VariableScope: pass scope.name); suffix=s: tf.compat.v1.{target}((scope or '') + "
        f"'.*' + s + ':') (no ':' added when s holds one)")
       for name, target in (("variables", "global_variables"), ("trainable_variables", "trainable_variables"),
                            ("local_variables", "local_variables"), ("model_variables", "model_variables"))},
    "tensorflow.contrib.framework.list_variables": "tf.train.list_variables(checkpoint)",
    "tensorflow.contrib.framework.load_checkpoint": "tf.train.load_checkpoint(checkpoint)",
    "tensorflow.contrib.framework.load_variable": "tf.train.load_variable(checkpoint, name)",
    "tensorflow.contrib.eager.in_eager_mode": "tf.executing_eagerly()",
    "tensorflow.python.util.nest.is_sequence": "tf.nest.is_nested (the same check, renamed in TF 2)",
    "tensorflow.contrib.eager.num_gpus": "len(tf.config.list_physical_devices('GPU'))",
    "tensorflow.contrib.keras": "tf.keras (same names; Keras 3 behind it)",
    "tensorflow.contrib.saved_model.save_keras_model": (
        "export_dir = os.path.join(saved_model_path, str(int(time.time()))); model.export(export_dir) "
        "(TF 1.15 wrote a timestamped SavedModel below saved_model_path and returned its path; Keras 3's "
        "export writes the serving signature only, no train/eval graphs)"),
    "tensorflow.contrib.cloud.configure_gcs": "drop the call (TensorFlow 2 reads GCS credentials itself; on Colab "
                                              "call google.colab.auth.authenticate_user())",
    "tensorflow.contrib.opt.AdamWOptimizer": "tf.keras.optimizers.AdamW (Keras optimizer: not a drop-in for "
                                             "tf.compat.v1 train_ops), or keep this file on TensorFlow 1.15",
    "tensorflow.contrib.quantize": "tfmot.quantization.keras.quantize_model (tensorflow-model-optimization; "
                                   "Keras models only)",
    "tensorflow.contrib.model_pruning": "tfmot.sparsity.keras.prune_low_magnitude (tensorflow-model-optimization; "
                                        "Keras models only)",
    "tensorflow.contrib.seq2seq": "tfa.seq2seq (tensorflow-addons, TF <= 2.15) or a hand-written "
                                 "tf.while_loop decoder",
    "tensorflow.contrib.distributions": "tfp.distributions.<name> (tensorflow-probability; the core ones TF 1.15 "
                                        "shared with tf.distributions are rewritten to tf.compat.v1.distributions)",
    # contrib.layers' model layers: tf_slim.layers is their code (measured with tf_slim 1.1.0 and tf-keras 2.21).
    **{f"tensorflow.contrib.layers.{name}": (
        f"tf_slim.layers.{name} (pip install tf_slim tf-keras; TF 1.15's contrib.layers code, same arguments and "
        "variable names in TF1 graphs on TF 2.21)") for name in (
        "fully_connected", "conv2d", "conv2d_transpose", "separable_conv2d", "avg_pool2d", "max_pool2d",
        "dropout", "repeat", "stack", "one_hot_encoding", "bias_add")},
    "tensorflow.contrib.layers.batch_norm": (
        "estimator_bridge.layers.batch_normalization(x, momentum=decay, scale=False, training=is_training) with "
        "contrib's defaults written out (decay 0.999, scale False; tf.layers' are 0.99 and True); its variables are "
        "named batch_normalization/ instead of BatchNorm/ (old checkpoints need a name map). "
        "tf_slim.layers.batch_norm raises ModuleNotFoundError 'tf_keras.legacy_tf_layers' on TF 2.21"),
    "tensorflow.estimator.inputs.numpy_input_fn": (
        "an input_fn returning tf.data.Dataset.from_tensor_slices((x, y)), shuffled, batched and repeated "
        "(numpy_input_fn fed a TF1 queue: its shuffle order is not reproduced)"),
    "tensorflow.estimator.inputs.pandas_input_fn": (
        "an input_fn returning tf.data.Dataset.from_tensor_slices((dict(df), labels)), shuffled, batched and "
        "repeated (pandas_input_fn fed a TF1 queue: its shuffle order is not reproduced)"),
    "tensorflow.contrib.crf": "tfa.text.crf_log_likelihood / crf_decode (tensorflow-addons, TF <= 2.15)",
    "tensorflow.contrib.learn.python.learn.datasets.mnist": "tf.keras.datasets.mnist.load_data()",
    "tensorflow.contrib.learn.datasets": "tf.keras.datasets",
    "tensorflow.contrib.recurrent": _RNN,
    "tensorflow.contrib.distribute.AllReduceCrossDeviceOps": "tf.distribute.NcclAllReduce / "
                                                             "HierarchicalCopyAllReduce",
    # Keras 3 removed the global learning phase.
    "keras.backend.set_learning_phase": "Keras 3 has no global learning phase, so delete the call. What the program "
                                        "loses: Keras layers called without training= (Dropout, BatchNormalization) "
                                        "no longer follow it and run in inference mode; pass training=True/False "
                                        "where the model or layer is called",
    "keras.backend.learning_phase": "pass training=True/False explicitly where the model is called "
                                    "(Keras 3 has no global learning phase)",
    "keras.layers.DenseFeatures": "tf.keras.layers.FeatureSpace or tf.compat.v1.feature_column.input_layer "
                                  "(DenseFeatures needs Keras 2: tf_keras)",
    # Keras 3 has no mixed_precision.experimental (TF 2.1-2.3 spellings; google-research/fixmatch imagenet)
    "keras.mixed_precision.experimental.Policy": (
        "tf.keras.mixed_precision.Policy(name) (Keras 3: no loss_scale argument; for float16 wrap the optimizer "
        "in tf.keras.mixed_precision.LossScaleOptimizer)"),
    "keras.mixed_precision.experimental.set_policy": "tf.keras.mixed_precision.set_global_policy(policy)",
    "keras.mixed_precision.experimental.global_policy": "tf.keras.mixed_precision.global_policy()",
    "keras.mixed_precision.experimental.LossScaleOptimizer": (
        "tf.keras.mixed_precision.LossScaleOptimizer(optimizer) (Keras 3: dynamic loss scaling only, "
        "initial_scale= instead of loss_scale=)"),
    # absl renamed it (google/youtube-8m train.py: `except flags.FlagsError`)
    "tensorflow.flags.FlagsError": "tf.compat.v1.flags.Error (absl.flags.Error: FlagsError was its old name)",
    # private members of Keras 2's optimizer (tensorflow/privacy dp_optimizer.py)
    **{f"{root}.Optimizer._compute_gradients": (
        "nothing in Keras 3: compute the gradients with tf.GradientTape, then call optimizer.apply_gradients")
       for root in ("keras.optimizers", "tensorflow.optimizers", "keras")},
    # private internals TF1 programs imported
    "tensorflow.python.ops.control_flow_ops.while_loop": "tf.compat.v1.while_loop",
    "tensorflow.python.ops.control_flow_ops.cond": "tf.compat.v1.cond",
    "tensorflow.python.ops.array_ops.stack": "tf.stack",
    "tensorflow.python.framework.ops.Tensor": "tf.Tensor",
    "tensorflow.python.ops.resource_variable_ops._to_proto_fn": "nothing: TF 2 registers resource variables' "
                                                                "proto functions itself; delete the registration",
    "tensorflow.python.ops.resource_variable_ops._from_proto_fn": "nothing: TF 2 registers resource variables' "
                                                                  "proto functions itself; delete the registration",
    "tensorflow.estimator": "estimator_bridge (TPUEstimator, Estimator, EstimatorSpec, RunConfig, ModeKeys, "
                            "hooks, export outputs)",
}


def hint_for(name: str) -> str:
    """The exact replacement for `name` (any spelling), or '' when none is recorded."""
    match = longest_prefix(canonical(name), HINTS)
    return match.entry if match is not None else ""
