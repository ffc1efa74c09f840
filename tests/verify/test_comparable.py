"""What the training phase compares: TF 1.x queue-fill summaries are left out on every side.

GoogleCloudPlatform/training-data-analyst's mnistmodel trainer reads MNIST through
`numpy_input_fn(shuffle=True, queue_capacity=5000)`; TF 1.15's feeder queue wrote the summary
`enqueue_input/queue/enqueue_input/random_shuffle_queuefraction_over_1250_of_3750_full` (1.0 in all 6
oracle runs). The bridge reads tf.data and writes no such tag, so the training phase failed on one
number missing on the side while every model number was within the oracle's spread.
"""

from verify import calibration
from verify.comparable import drop_queue_fill_scalars, training_inputs

QUEUE_TAG = "enqueue_input/queue/enqueue_input/random_shuffle_queuefraction_over_1250_of_3750_full"


def _run(loss: float, **scalars) -> dict:
    return {"scalars": {"loss": {"1": loss, "2": loss / 2}, **scalars}, "variables": {"w": [1.0, 2.0]}}


def test_a_queue_fill_summary_only_the_oracle_wrote_is_not_a_missing_number():
    runs = [_run(0.70, **{QUEUE_TAG: {"1": 1.0}}), _run(0.71, **{QUEUE_TAG: {"1": 1.0}}),
            _run(0.705, **{QUEUE_TAG: {"1": 0.98}})]
    side = _run(0.702)
    before = calibration.judge_calibrated(runs, side, rtol=1e-4, margin=3.0)
    assert not before.passed and before.missing  # what the trainer's phase got before

    kept_runs, kept_side, notes = training_inputs(runs, side)
    after = calibration.judge_calibrated(kept_runs, kept_side, rtol=1e-4, margin=3.0)
    assert after.passed and not after.missing
    assert notes == [f"scalars {QUEUE_TAG}: how full a TF 1.x input queue was (the reader's speed, not the model's); "
                     "not compared"]


def test_every_queue_fill_spelling_of_tf1_is_left_out_and_nothing_else():
    tags = ["input_producer/fraction_of_32_full", "batch/fraction_of_64_full",
            "shuffle_batch/fraction_over_100_of_900_full", "queue/q/fraction_of_1000_full"]
    kept = ["loss", "fraction_of_correct", "accuracy_full", "full/fraction_of_x_full"]
    run = {"scalars": {tag: {"1": 1.0} for tag in [*tags, *kept]}}
    kept_runs, kept_side, notes = drop_queue_fill_scalars([run], run)
    assert sorted(kept_side["scalars"]) == sorted(kept) == sorted(kept_runs[0]["scalars"])
    assert len(notes) == 1


def test_runs_without_queue_summaries_are_passed_through_unchanged():
    runs = [_run(0.7), _run(0.71)]
    assert drop_queue_fill_scalars(runs, runs[0]) == (runs, runs[0], [])
