"""Estimator family -> estimator_bridge (keys are canonical names, see aliases.py)."""

from migrate.tables.entries import Replacement, Unsupported
from migrate.tables.tf1_hooks import BRIDGE_UNDER_TF_TRAIN, EARLY_STOPPING_HOOKS
from migrate.tables.tf1_hooks import SHIPPED_BY_BRIDGE as _HOOKS

_TPU = ("TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig", "CrossShardOptimizer")
_CORE = ("Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "WarmStartSettings", "VocabInfo",
         # train_and_evaluate and its specs and exporters (estimator_bridge/training.py, exporters.py)
         "TrainSpec", "EvalSpec", "train_and_evaluate", "Exporter", "LatestExporter", "FinalExporter",
         "BestExporter")
# _HOOKS: the hooks estimator_bridge ships (tf1_hooks.py, shared with the compat runner); user
# code naming another tf.estimator hook gets MIG304.
_EXPORT = ("ServingInputReceiver", "TensorServingInputReceiver", "ExportOutput", "PredictOutput",
           "ClassificationOutput", "RegressionOutput", "build_raw_serving_input_receiver_fn",
           "build_parsing_serving_input_receiver_fn")

ESTIMATOR = {
    **{f"tensorflow.contrib.tpu.{name}": Replacement(f"estimator_bridge.{name}") for name in _TPU},
    # tf.compat.v1.tpu.CrossShardOptimizer would all-reduce a second time under tf.distribute.
    "tensorflow.tpu.CrossShardOptimizer": Replacement("estimator_bridge.CrossShardOptimizer"),
    **{f"tensorflow.estimator.{name}": Replacement(f"estimator_bridge.{name}") for name in _CORE + _HOOKS},
    # tf.compat.v1.train.ProfilerHook raises in its constructor under eager TF 2 (tf1_hooks.py)
    **{f"tensorflow.train.{name}": Replacement(f"estimator_bridge.{name}") for name in BRIDGE_UNDER_TF_TRAIN},
    **{f"tensorflow.estimator.experimental.{name}": Replacement(f"estimator_bridge.compat.early_stopping.{name}")
       for name in EARLY_STOPPING_HOOKS},
    **{f"tensorflow.estimator.export.{name}": Replacement(f"estimator_bridge.export.{name}") for name in _EXPORT},
    # TF <= 2.15's Keras-to-Estimator wrapper (estimator_bridge/keras_estimator.py: the same arguments,
    # a Keras 3 or tf-keras model)
    "keras.estimator.model_to_estimator": Replacement("estimator_bridge.model_to_estimator"),
    "tensorflow_estimator.python.estimator.keras.model_to_estimator": Replacement(
        "estimator_bridge.model_to_estimator"),
    "tensorflow.contrib.learn.ModeKeys": Replacement("estimator_bridge.ModeKeys"),
    # contrib.learn's third mode was INFER = "infer": the string tf.estimator's PREDICT holds
    # (tensorflow/nmt's `mode == tf.contrib.learn.ModeKeys.INFER`; was a broken ModeKeys.INFER).
    "tensorflow.contrib.learn.ModeKeys.INFER": Replacement("estimator_bridge.ModeKeys.PREDICT"),
    # tensor2tensor's trainer_lib passed its hooks through it (estimator_bridge/compat/contrib_learn.py)
    **{f"tensorflow.contrib.learn.{path}monitors.replace_monitors_with_hooks": Replacement(
        "estimator_bridge.compat.contrib_learn.replace_monitors_with_hooks") for path in ("", "python.learn.")},
    # TF 1.15's AsyncCheckpointSaverHook takes CheckpointSaverHook's arguments and writes the same
    # checkpoints at the same steps, from a thread; the bridge saves at loop boundaries itself.
    "tensorflow.contrib.tpu.AsyncCheckpointSaverHook": Replacement("estimator_bridge.CheckpointSaverHook"),
    # A private helper of TF 1.15's tensorflow.python.estimator.estimator that TPU scripts import
    # (the bridge's own few lines, compat/contrib_helpers.py).
    **{f"{prefix}._load_global_step_from_checkpoint_dir": Replacement(
        "estimator_bridge.compat.contrib_helpers.load_global_step_from_checkpoint_dir")
       for prefix in ("tensorflow.estimator", "tensorflow.estimator.python.estimator.estimator")},
}

# Anything else under these prefixes is reported: estimator_bridge does not provide it.
ESTIMATOR_UNSUPPORTED = {
    "tensorflow.estimator": Unsupported(
        "MIG304", "`{name}` is part of tf.estimator, removed in TensorFlow 2.16, and estimator_bridge does not provide it",
        "rewrite it with Keras or a custom training loop, or pin TensorFlow <= 2.15 for this part"),
}
