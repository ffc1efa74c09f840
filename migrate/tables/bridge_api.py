"""The public API of `estimator_bridge` that rewrites may target (names relative to the package).

One table for every codemod that writes `estimator_bridge.X`; tests/migrate/test_tables.py checks
each name with `hasattr` against the installed bridge (and lists the ones not shipped yet).
"""

BRIDGE_API = frozenset({
    # estimators and their configuration
    "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig",
    "CrossShardOptimizer", "Estimator", "EstimatorSpec", "ModeKeys", "WarmStartSettings",
    # export
    "export.ServingInputReceiver", "export.TensorServingInputReceiver", "export.ExportOutput",
    "export.PredictOutput", "export.ClassificationOutput", "export.RegressionOutput",
    "export.build_raw_serving_input_receiver_fn", "export.build_parsing_serving_input_receiver_fn",
    # hooks
    "SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
    "LoggingTensorHook", "StopAtStepHook", "CheckpointSaverHook", "NanTensorHook",
    # TF1 layers (Keras 3 removed tf.compat.v1.layers)
    "layers.dense", "layers.conv2d", "layers.max_pooling2d", "layers.average_pooling2d",
    "layers.batch_normalization", "layers.dropout", "layers.flatten", "layers.layer_norm",
})
