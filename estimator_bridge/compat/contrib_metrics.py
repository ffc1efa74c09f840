"""`tf.contrib.metrics` on current TensorFlow, with TF 1.15's signatures and arithmetic.

Eval `metric_fn`s of 2018-2020 repositories (BERT/ALBERT/XLNet regression and classification
heads, GLUE's STS-B Pearson, MRPC F1) return these (value, update_op) pairs. Two kinds:
- the wrappers that were one call into tf.metrics (contrib_metrics_table.DELEGATED): served
  here with contrib's parameter order (predictions first) and defaults, calling
  tf.compat.v1.metrics by keyword;
- the ones with code of their own (contrib_metrics_table.FROM_TF_SLIM: covariance, Pearson,
  streaming_concat, f1_score, the aggregation helpers): tf-slim's (`tf_slim.metrics`, the
  maintained extraction of contrib's metrics), used as they are.
Either way the variables are local metric variables, so evaluate() resets them. The codemod
rewrites `tf.contrib.metrics.X` to `estimator_bridge.compat.contrib_metrics.X`; the compat runner
serves this module as `tf.contrib.metrics`. The values against TF 1.15 are pinned by
tests/estimator_bridge/test_real_patterns.py::test_contrib_streaming_metrics_give_tf115_s_values.
"""

from __future__ import annotations

import ast
import inspect

import tensorflow as tf
from tf_slim.metrics import (aggregate_metric_map, aggregate_metrics, f1_score, streaming_concat,
                             streaming_covariance, streaming_pearson_correlation)

from migrate.tables.contrib_metrics import DELEGATED, FROM_TF_SLIM

tf1 = tf.compat.v1


# ---- the wrappers ---------------------------------------------------------------------------------

def _parameters(spec: str):
    parameters = []
    for item in spec.split():
        name, has_default, default = item.partition("=")
        parameters.append(inspect.Parameter(
            name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=ast.literal_eval(default) if has_default else inspect.Parameter.empty))
    return parameters


def _delegate(contrib_name: str):
    target, spec = DELEGATED[contrib_name]
    signature = inspect.Signature(_parameters(spec))
    metric = getattr(tf1.metrics, target)

    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return metric(**bound.arguments)

    wrapper.__name__ = wrapper.__qualname__ = contrib_name
    wrapper.__signature__ = signature
    wrapper.__doc__ = (f"TF 1.15's tf.contrib.metrics.{contrib_name}: "
                       f"tf.compat.v1.metrics.{target} with contrib's parameter order.")
    return wrapper


# One line per name (not a loop over the table) so that readers and the codemod's existence check,
# which reads this file with `ast`, see every name; tests check the lines against the table.
streaming_true_positives = _delegate("streaming_true_positives")
streaming_true_negatives = _delegate("streaming_true_negatives")
streaming_false_positives = _delegate("streaming_false_positives")
streaming_false_negatives = _delegate("streaming_false_negatives")
streaming_mean = _delegate("streaming_mean")
streaming_mean_tensor = _delegate("streaming_mean_tensor")
streaming_accuracy = _delegate("streaming_accuracy")
streaming_precision = _delegate("streaming_precision")
streaming_recall = _delegate("streaming_recall")
streaming_auc = _delegate("streaming_auc")
streaming_specificity_at_sensitivity = _delegate("streaming_specificity_at_sensitivity")
streaming_sensitivity_at_specificity = _delegate("streaming_sensitivity_at_specificity")
streaming_precision_at_thresholds = _delegate("streaming_precision_at_thresholds")
streaming_recall_at_thresholds = _delegate("streaming_recall_at_thresholds")
streaming_sparse_recall_at_k = _delegate("streaming_sparse_recall_at_k")
streaming_sparse_precision_at_k = _delegate("streaming_sparse_precision_at_k")
streaming_sparse_average_precision_at_k = _delegate("streaming_sparse_average_precision_at_k")
streaming_mean_absolute_error = _delegate("streaming_mean_absolute_error")
streaming_mean_relative_error = _delegate("streaming_mean_relative_error")
streaming_mean_squared_error = _delegate("streaming_mean_squared_error")
streaming_root_mean_squared_error = _delegate("streaming_root_mean_squared_error")
streaming_percentage_less = _delegate("streaming_percentage_less")
streaming_mean_iou = _delegate("streaming_mean_iou")


SUPPORTED = tuple(sorted(DELEGATED)) + FROM_TF_SLIM
