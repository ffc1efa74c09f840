"""TPUEstimator's batch sizes for input_fn and model_fn."""

from __future__ import annotations

import pytest

import estimator_bridge as tpu
from estimator_bridge.contract import batching

PER_HOST_V1 = tpu.InputPipelineConfig.PER_HOST_V1
PER_HOST_V2 = tpu.InputPipelineConfig.PER_HOST_V2


@pytest.mark.parametrize("tpu_semantics, mode, expected", [
    (False, PER_HOST_V1, (32, 32)),   # CPU path: input_fn and model_fn both see the global batch
    (True, PER_HOST_V1, (32, 8)),     # input_fn builds G, each of 4 replicas gets G/4 rows
    (True, PER_HOST_V2, (8, 8)),      # input_fn builds G/4 per replica
])
def test_batch_sizes_follow_tpuestimator(tpu_semantics, mode, expected):
    assert batching.batch_sizes(global_batch_size=32, num_replicas=4, tpu_semantics=tpu_semantics,
                              deployment_mode=mode) == expected


def test_a_global_batch_not_divisible_by_the_replicas_is_refused():
    with pytest.raises(ValueError, match=r"train batch size 30 must be divisible by number of "
                                         r"replicas 4.*\(e.g. 32\)"):
        batching.batch_sizes(global_batch_size=30, num_replicas=4, tpu_semantics=True,
                           deployment_mode=PER_HOST_V1)
