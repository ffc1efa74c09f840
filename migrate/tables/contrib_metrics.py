"""`tf.contrib.metrics` functions that were one call into `tf.metrics` (TF 1.15's metric_ops.py).

contrib name -> (the tf.compat.v1.metrics function TF 1.15 called, contrib's parameters in
order with their defaults). TF 1.15's wrapper passed every parameter by keyword, so the only
difference from calling tf.compat.v1.metrics directly is the parameter ORDER (contrib put
`predictions` first, tf.metrics puts `labels` first): a positional call must bind by contrib's
order. Read from TF 1.15's source (python/ops/metric_ops.py, every function whose body is one
`return metrics.X(...)`).

Pure data shared by both tools (like tf1_hooks.py): the compat runner serves these names as
`tf.contrib.metrics` from estimator_bridge/compat/contrib_metrics.py, and the codemod rewrites
`tf.contrib.metrics.X` to `estimator_bridge.compat.contrib_metrics.X` (tables/contrib.py).
"""

_PREDICTIONS_LABELS = "predictions labels weights=None metrics_collections=None updates_collections=None name=None"

DELEGATED = {
    "streaming_true_positives": ("true_positives", _PREDICTIONS_LABELS),
    "streaming_true_negatives": ("true_negatives", _PREDICTIONS_LABELS),
    "streaming_false_positives": ("false_positives", _PREDICTIONS_LABELS),
    "streaming_false_negatives": ("false_negatives", _PREDICTIONS_LABELS),
    "streaming_mean": ("mean", "values weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_mean_tensor": ("mean_tensor", "values weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_accuracy": ("accuracy", _PREDICTIONS_LABELS),
    "streaming_precision": ("precision", _PREDICTIONS_LABELS),
    "streaming_recall": ("recall", _PREDICTIONS_LABELS),
    "streaming_auc": ("auc", "predictions labels weights=None num_thresholds=200 metrics_collections=None updates_collections=None curve='ROC' name=None"),
    "streaming_specificity_at_sensitivity": ("specificity_at_sensitivity", "predictions labels sensitivity weights=None num_thresholds=200 metrics_collections=None updates_collections=None name=None"),
    "streaming_sensitivity_at_specificity": ("sensitivity_at_specificity", "predictions labels specificity weights=None num_thresholds=200 metrics_collections=None updates_collections=None name=None"),
    "streaming_precision_at_thresholds": ("precision_at_thresholds", "predictions labels thresholds weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_recall_at_thresholds": ("recall_at_thresholds", "predictions labels thresholds weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_sparse_recall_at_k": ("recall_at_k", "predictions labels k class_id=None weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_sparse_precision_at_k": ("precision_at_k", "predictions labels k class_id=None weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_sparse_average_precision_at_k": ("average_precision_at_k", "predictions labels k weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_mean_absolute_error": ("mean_absolute_error", _PREDICTIONS_LABELS),
    "streaming_mean_relative_error": ("mean_relative_error", "predictions labels normalizer weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_mean_squared_error": ("mean_squared_error", _PREDICTIONS_LABELS),
    "streaming_root_mean_squared_error": ("root_mean_squared_error", _PREDICTIONS_LABELS),
    "streaming_percentage_less": ("percentage_below", "values threshold weights=None metrics_collections=None updates_collections=None name=None"),
    "streaming_mean_iou": ("mean_iou", "predictions labels num_classes weights=None metrics_collections=None updates_collections=None name=None"),
}

# The functions with code of their own in TF 1.15's contrib: served from tf-slim (tf_slim.metrics).
FROM_TF_SLIM = ("streaming_covariance", "streaming_pearson_correlation", "streaming_concat", "f1_score",
                "aggregate_metrics", "aggregate_metric_map")
