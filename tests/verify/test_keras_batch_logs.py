"""Per-batch Keras losses are compared as batch losses, whichever Keras logged them.

TF 1.x's Keras, and tf-keras' v1 graph-mode loops (the compat runner's for TF 1.x Keras programs),
pass each batch's own loss to `on_batch_end`; Keras 3 and eager Keras 2 pass the epoch's running
mean. verify.shipped turned every run's per-batch logs back from running means, so the runner's
batch losses (equal to TF 1.15's) became garbage: the shipped keras_tpu example's runner side was
7.6 relative off its golden with the losses exact (step 2: 2 * 2.2651939 - 2.2735789).
"""

from verify.compare import logs_running_means, per_batch_from_running_means
from verify.shipped_runs import epoch_losses

BATCH_LOSSES = [4.0, 3.0, 2.0, 1.0, 2.0, 6.0]  # two epochs of 3 steps
EPOCH_LOSSES = [3.0, 3.0]
RUNNING_MEANS = [[1, 4.0], [2, 3.5], [3, 3.0], [4, 1.0], [5, 1.5], [6, 3.0]]
BATCH_ROWS = [[step, loss] for step, loss in enumerate(BATCH_LOSSES, 1)]


def test_running_means_are_told_apart_from_batch_losses_by_each_epochs_last_value():
    assert logs_running_means(RUNNING_MEANS, EPOCH_LOSSES, steps_per_epoch=3)
    assert not logs_running_means(BATCH_ROWS, EPOCH_LOSSES, steps_per_epoch=3)


def test_running_means_turn_into_the_batch_losses_tf1_logged():
    assert [loss for _, loss in per_batch_from_running_means(RUNNING_MEANS, 3)] == BATCH_LOSSES


def test_a_shipped_examples_epoch_losses_come_from_its_history_table():
    result = {"history": {"columns": ["epoch", "loss", "acc"], "rows": [[1, 3.0, 0.5], [2, 2.5, 0.6]]}}
    assert epoch_losses(result) == [3.0, 2.5]
    assert epoch_losses({}) == []
