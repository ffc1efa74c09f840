"""A tf.keras Dropout layer in a model_fn draws a fresh mask at every step, as on TF 1.15 (oracle test).

tensorflow/tpu's EfficientNet calls `tf.keras.layers.Dropout(rate)(x, training=True)` before its
logits. On TF 1.15 every train step (and every predict batch) drew a new mask. After
estimator-migrate the layer is Keras 3's, whose SeedGenerator advances its state by an assignment
nothing fetched: the bridge runs a step with TF1 fetch semantics, so the assignment never ran and
all 6 train steps and 4 predict batches shared one mask (measured before the fix: 1 distinct mask
of 6 and 1 of 4 on the migrated side; TF 1.15 and the runner, whose tf-keras Dropout uses TF's
stateful random ops: 6 of 6 and 4 of 4). With one mask, the units it dropped never trained: the
migrated EfficientNet's head learnt a different function from TF 1.15's.
"""

from __future__ import annotations

import pytest

from tests.support.oracles import REPO_ROOT
from tests.support.three_sides import run_side

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "real_patterns" / "keras_dropout_model_fn.py"


@pytest.mark.parametrize("side", ["oracle", "runner", "migrated"])
def test_every_step_and_predict_batch_draws_its_own_dropout_mask(side, tmp_path):
    result = run_side(side, PROGRAM, ["--model_dir={model_dir}"], tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]
    masks = result.result
    # 64 units at rate 0.5: two equal masks have probability 2**-64; the oracle shows every step's own.
    assert masks["train_masks_recorded"] == masks["train_steps"], masks
    assert masks["train_masks_distinct"] == masks["train_steps"], masks
    assert masks["predict_masks_distinct"] == masks["predict_batches"], masks
