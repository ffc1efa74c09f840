"""contract/metrics.py: how eval_metrics / host_call tensors reach metric_fn (docs/semantics.md section 5)."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.contract import metrics
from estimator_bridge.runtime import distribute


def test_metric_fn_gets_a_list_positionally_and_a_dict_by_name():
    assert metrics.call_with_tensors(lambda a, b: (a, b), [1, 2]) == (1, 2)
    assert metrics.call_with_tensors(lambda labels, logits: (labels, logits),
                                     {"logits": 2, "labels": 1}) == (1, 2)


def _gathered(values_per_replica, tpu_semantics):
    strategy = distribute.choose_deployment(
        tpu.RunConfig(tpu_config=tpu.TPUConfig(num_shards=len(values_per_replica))),
        use_tpu=True).strategy

    def value(context):
        return tf.constant(values_per_replica[context.replica_id_in_sync_group])
    per_replica = strategy.experimental_distribute_values_from_function(value)
    return metrics.gather_replicas(strategy, {"x": per_replica}, tpu_semantics=tpu_semantics,
                                   name="eval_metrics")["x"]


def test_replica_values_are_concatenated_in_replica_order_along_the_batch_axis():
    gathered = _gathered([[[0.0, 1.0]], [[2.0, 3.0]], [[4.0, 5.0]], [[6.0, 7.0]]],
                         tpu_semantics=True)
    np.testing.assert_array_equal(gathered.numpy(), np.arange(8.0).reshape(4, 2))


def test_a_scalar_cannot_be_outfed_from_a_tpu_and_the_error_says_how_to_reshape_it():
    with pytest.raises(RuntimeError, match=r"should preserve batch size dimension.*in "
                                           r"eval_metrics.*tf.reshape\(x, \[1\]\)"):
        _gathered([1.0, 2.0], tpu_semantics=True)


@pytest.mark.parametrize("metric_dict, error, message", [
    ([("acc", None)], TypeError, r"my_metric_fn must return a dict \{name: \(value, update_op\)\}"),
    ({"loss": (1, 2)}, ValueError, r'Metric with name "loss" is not allowed.*Rename the metric'),
    ({"global_step": (1, 2)}, ValueError, r'Metric with name "global_step" is not allowed'),
    ({"acc": 1.0}, TypeError, r"returned 1.0 for metric 'acc'.*\(value, update_op\) pair"),
])
def test_metric_dicts_are_checked_with_tf1s_rules(metric_dict, error, message):
    with pytest.raises(error, match=message):
        metrics.check_metric_dict(metric_dict, "my_metric_fn")

