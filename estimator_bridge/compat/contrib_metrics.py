"""`tf.contrib.metrics` on current TensorFlow: TF 1.15's streaming metrics, same arithmetic.

Eval `metric_fn`s of 2018-2020 repositories (BERT/ALBERT/XLNet regression and classification
heads, GLUE's STS-B Pearson, MRPC F1) return these (value, update_op) pairs. Two kinds:
- the wrappers that were one call into tf.metrics (contrib_metrics_table.DELEGATED): served
  here with contrib's parameter order (predictions first) and defaults, calling
  tf.compat.v1.metrics by keyword as TF 1.15 did;
- the ones with their own code, reproduced op for op from TF 1.15's metric_ops.py and
  classification.py: `streaming_covariance`, `streaming_pearson_correlation`,
  `streaming_concat` (a buffer that grows by 1.5x as batches arrive), `f1_score` (best F1 over
  `num_thresholds` thresholds), `aggregate_metrics`, `aggregate_metric_map`.
Their variables are local metric variables (`metric_variable`), as in TF 1.15, so evaluate()
resets them. The codemod rewrites `tf.contrib.metrics.X` to `estimator_bridge.compat.
contrib_metrics.X`; the compat runner serves this module as `tf.contrib.metrics`.
"""

from __future__ import annotations

import ast
import inspect

import tensorflow as tf
from tensorflow.python.ops import metrics_impl, weights_broadcast_ops

from migrate.tables.contrib_metrics import DELEGATED, PORTED

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


# ---- covariance and Pearson correlation -------------------------------------------------------

def _add_to_collections(collections, value):
    if collections:
        tf1.add_to_collections(collections, value)


def streaming_covariance(predictions, labels, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """Unbiased covariance, updated per batch with the pairwise (Chan et al.) formula."""
    with tf1.variable_scope(name, "covariance", (predictions, labels, weights)):
        predictions, labels, weights = metrics_impl._remove_squeezable_dimensions(
            predictions, labels, weights)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        count_ = metrics_impl.metric_variable([], tf.float32, name="count")
        mean_prediction = metrics_impl.metric_variable([], tf.float32, name="mean_prediction")
        mean_label = metrics_impl.metric_variable([], tf.float32, name="mean_label")
        comoment = metrics_impl.metric_variable([], tf.float32, name="comoment")
        if weights is None:
            batch_count = tf.cast(tf.size(labels), tf.float32)
            weighted_predictions, weighted_labels = predictions, labels
        else:
            weights = weights_broadcast_ops.broadcast_weights(weights, labels)
            batch_count = tf.reduce_sum(weights)
            weighted_predictions = tf.multiply(predictions, weights)
            weighted_labels = tf.multiply(labels, weights)
        update_count = tf1.assign_add(count_, batch_count)
        prev_count = update_count - batch_count
        batch_mean_prediction = tf.math.divide_no_nan(
            tf.reduce_sum(weighted_predictions), batch_count)
        delta_mean_prediction = tf.math.divide_no_nan(
            (batch_mean_prediction - mean_prediction) * batch_count, update_count)
        update_mean_prediction = tf1.assign_add(mean_prediction, delta_mean_prediction)
        prev_mean_prediction = update_mean_prediction - delta_mean_prediction
        batch_mean_label = tf.math.divide_no_nan(tf.reduce_sum(weighted_labels), batch_count)
        delta_mean_label = tf.math.divide_no_nan(
            (batch_mean_label - mean_label) * batch_count, update_count)
        update_mean_label = tf1.assign_add(mean_label, delta_mean_label)
        prev_mean_label = update_mean_label - delta_mean_label
        coresiduals = (predictions - batch_mean_prediction) * (labels - batch_mean_label)
        batch_comoment = tf.reduce_sum(coresiduals if weights is None else coresiduals * weights)
        delta_comoment = (batch_comoment + (prev_mean_prediction - batch_mean_prediction)
                          * (prev_mean_label - batch_mean_label)
                          * (prev_count * batch_count / update_count))
        update_comoment = tf1.assign_add(comoment, delta_comoment)
        covariance = tf1.where(tf.less_equal(count_, 1.0), float("nan"),
                               tf.truediv(comoment, count_ - 1), name="covariance")
        with tf.control_dependencies([update_comoment]):
            update_op = tf1.where(tf.less_equal(count_, 1.0), float("nan"),
                                  tf.truediv(comoment, count_ - 1), name="update_op")
    _add_to_collections(metrics_collections, covariance)
    _add_to_collections(updates_collections, update_op)
    return covariance, update_op


def streaming_pearson_correlation(predictions, labels, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """Pearson's r from three streaming covariances (TF 1.15's code)."""
    with tf1.variable_scope(name, "pearson_r", (predictions, labels, weights)):
        predictions, labels, weights = metrics_impl._remove_squeezable_dimensions(
            predictions, labels, weights)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        if weights is not None:
            weights = weights_broadcast_ops.broadcast_weights(weights, labels)
        cov, update_cov = streaming_covariance(predictions, labels, weights=weights,
                                               name="covariance")
        var_predictions, update_var_predictions = streaming_covariance(
            predictions, predictions, weights=weights, name="variance_predictions")
        var_labels, update_var_labels = streaming_covariance(
            labels, labels, weights=weights, name="variance_labels")
        pearson_r = tf.truediv(cov, tf.multiply(tf.sqrt(var_predictions), tf.sqrt(var_labels)),
                               name="pearson_r")
        update_op = tf.truediv(update_cov, tf.multiply(tf.sqrt(update_var_predictions),
                                                       tf.sqrt(update_var_labels)),
                               name="update_op")
    _add_to_collections(metrics_collections, pearson_r)
    _add_to_collections(updates_collections, update_op)
    return pearson_r, update_op


# ---- streaming_concat ---------------------------------------------------------------------------

def _next_array_size(required_size, growth_factor=1.5):
    exponent = tf.math.ceil(tf.math.log(tf.cast(required_size, tf.float32))
                            / tf.math.log(tf.cast(growth_factor, tf.float32)))
    return tf.cast(tf.math.ceil(growth_factor ** exponent), tf.int32)


def streaming_concat(values, axis=0, max_size=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """Every batch's `values` concatenated along `axis` (at most `max_size` rows kept).

    The buffer is a metric variable without a fixed shape that is reallocated 1.5x larger when
    a batch does not fit, as in TF 1.15; every dimension but `axis` must be static.
    """
    with tf1.variable_scope(name, "streaming_concat", (values,)):
        values_shape = values.get_shape()
        if values_shape.dims is None:
            raise ValueError("`values` must have known statically known rank")
        ndim = len(values_shape)
        if axis < 0:
            axis += ndim
        if not 0 <= axis < ndim:
            raise ValueError(f"axis = {axis!r} not in [0, {ndim!r})")
        fixed_shape = [dim for n, dim in enumerate(values_shape.as_list()) if n != axis]
        if any(value is None for value in fixed_shape):
            raise ValueError("all dimensions of `values` other than the dimension to "
                             "concatenate along must have statically known size")
        init_shape = [0 if max_size is None else max_size] + fixed_shape
        array = metrics_impl.metric_variable(init_shape, values.dtype, validate_shape=False,
                                             name="array")
        size = metrics_impl.metric_variable([], tf.int32, name="size")
        perm = [0 if n == axis else n + 1 if n < axis else n for n in range(ndim)]
        valid_array = array[:size]
        valid_array.set_shape([None] + fixed_shape)
        value = tf.transpose(valid_array, perm, name="concat")
        values_size = tf.shape(values)[axis]
        batch_size = values_size if max_size is None else tf.minimum(values_size, max_size - size)
        perm = [axis] + [n for n in range(ndim) if n != axis]
        batch_values = tf.transpose(values, perm)[:batch_size]
        new_size = size + batch_size

        def reallocate():
            next_shape = tf.stack([_next_array_size(new_size)] + fixed_shape)
            new_value = tf.zeros(next_shape, dtype=values.dtype)
            old_value = array.value()
            with tf.control_dependencies([old_value]):
                assign_op = tf1.assign(array, new_value, validate_shape=False)
            with tf.control_dependencies([assign_op]):
                copy_op = array[:size].assign(old_value[:size])
            with tf.control_dependencies([copy_op]):
                return tf.no_op()

        array_size = tf.shape(array.value(), out_type=tf.int32)[0]
        maybe_reallocate_op = tf.cond(new_size > array_size, reallocate, tf.no_op)
        with tf.control_dependencies([maybe_reallocate_op]):
            append_values_op = array[size:new_size].assign(batch_values)
        with tf.control_dependencies([append_values_op]):
            update_op = size.assign(new_size)
        _add_to_collections(metrics_collections, value)
        _add_to_collections(updates_collections, update_op)
        return value, update_op


# ---- f1_score ----------------------------------------------------------------------------------

def f1_score(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
             updates_collections=None, name=None):
    """The best F1 over `num_thresholds` thresholds in [0, 1] (TF 1.15's classification.py)."""
    with tf1.variable_scope(name, "f1", (labels, predictions, weights)):
        predictions, labels, weights = metrics_impl._remove_squeezable_dimensions(
            predictions=predictions, labels=labels, weights=weights)
        epsilon = 1e-7
        thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        thresholds = [0.0 - epsilon] + thresholds + [1.0 + epsilon]
        values, update_ops = metrics_impl._confusion_matrix_at_thresholds(
            labels, predictions, thresholds, weights, includes=("tp", "fp", "fn"))

        def compute_best_f1_score(tp, fp, fn, name):
            precision_at_t = tf.math.divide(tp, epsilon + tp + fp, name="precision_" + name)
            recall_at_t = tf.math.divide(tp, epsilon + tp + fn, name="recall_" + name)
            f1_at_thresholds = (2.0 * precision_at_t * recall_at_t
                                / (precision_at_t + recall_at_t + epsilon))
            return tf.reduce_max(f1_at_thresholds)

        def f1_across_replicas(_, values):
            best_f1 = compute_best_f1_score(tp=values["tp"], fp=values["fp"], fn=values["fn"],
                                            name="value")
            _add_to_collections(metrics_collections, best_f1)
            return best_f1

        # TF 1.15 read the value in a merge_call; where metric_fn runs without a replica
        # context (the bridge's host-side metrics), the value is the same read directly.
        context = tf.distribute.get_replica_context()
        best_f1 = (context.merge_call(f1_across_replicas, args=(values,))
                   if context is not None else f1_across_replicas(None, values))
        update_op = compute_best_f1_score(tp=update_ops["tp"], fp=update_ops["fp"],
                                          fn=update_ops["fn"], name="update")
        _add_to_collections(updates_collections, update_op)
        return best_f1, update_op


# ---- aggregation helpers (pure Python) ----------------------------------------------------------

def aggregate_metrics(*value_update_tuples):
    """[(value, update), ...] -> ([values], [updates])."""
    if not value_update_tuples:
        raise ValueError("Expected at least one value_tensor/update_op pair")
    value_ops, update_ops = zip(*value_update_tuples)
    return list(value_ops), list(update_ops)


def aggregate_metric_map(names_to_tuples):
    """{name: (value, update)} -> ({name: value}, {name: update})."""
    metric_names = names_to_tuples.keys()
    value_ops, update_ops = zip(*names_to_tuples.values())
    return dict(zip(metric_names, value_ops)), dict(zip(metric_names, update_ops))



SUPPORTED = tuple(sorted(DELEGATED)) + PORTED
