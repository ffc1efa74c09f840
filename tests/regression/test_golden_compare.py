"""How a run is held against a golden: pairing, relative differences, what counts as failing."""

import math

from verify.compare import compare, flatten_numbers, loss_at_last_step

GOLDEN = {
    "scalars": {"loss": {"1": 2.0, "2": 1.5}},
    "eval": {"accuracy": 0.5, "global_step": 2.0, "loss": 1.25},
    "predictions": {"columns": ["p0", "p1"], "rows": [[0.25, 0.75]]},
    "variables": {"dense/bias": {"shape": [2], "values": [0.001, -2.0], "l2": math.sqrt(4.000001)}},
    "final_checkpoint": "model.ckpt-2",
}


def copy_with(**changes):
    import copy

    result = copy.deepcopy(GOLDEN)
    for where, value in changes.items():
        node = result
        *path, last = where.split("__")
        for key in path:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return result


def test_identical_runs_compare_equal():
    comparison = compare(GOLDEN, copy_with())
    assert comparison.max_relative == 0.0
    assert comparison.failures(rtol=0.0) == []
    assert len(comparison.pairs) == len(flatten_numbers(GOLDEN))


def test_a_loss_off_by_one_part_in_a_million_is_reported_with_its_step():
    comparison = compare(GOLDEN, copy_with(scalars__loss__2=1.5 * (1 + 2e-6)))
    assert math.isclose(comparison.max_relative, 2e-6, rel_tol=1e-6)
    assert comparison.worst.where == "scalars.loss.2"
    assert comparison.failures(rtol=1e-6) == [
        "scalars.loss.2: golden 1.5, ours 1.500003 (relative 2.00e-06 > 1e-06)"]
    assert comparison.failures(rtol=1e-5) == []


def test_missing_and_unexpected_steps_fail():
    ours = copy_with()
    del ours["scalars"]["loss"]["2"]
    ours["scalars"]["loss"]["3"] = 1.0
    comparison = compare(GOLDEN, ours)
    assert comparison.missing == ("scalars.loss.2",)
    assert comparison.unexpected == ("scalars.loss.3",)
    assert len(comparison.failures(rtol=1.0)) == 2


def test_variable_elements_are_measured_against_the_variable_scale():
    # 0.001 -> 0.0010000014: 1.4e-3 of the value, but 1e-6 of the bias's RMS (about 1.414).
    ours = copy_with()
    ours["variables"]["dense/bias"]["values"][0] = 0.0010000014
    comparison = compare(GOLDEN, ours)
    (pair,) = [p for p in comparison.pairs if p.where == "variables.dense/bias.values.0"]
    assert math.isclose(pair.relative, 1.4e-9 / math.sqrt(2.0000005), rel_tol=1e-3)


def test_a_different_final_checkpoint_is_a_failure():
    comparison = compare(GOLDEN, copy_with(final_checkpoint="model.ckpt-3"))
    assert comparison.mismatched and comparison.failures(rtol=1.0)


def test_nan_only_matches_nan():
    assert compare(GOLDEN, copy_with(eval__loss=float("nan"))).max_relative == math.inf


def test_last_loss_comes_from_summaries_or_keras_rows():
    assert loss_at_last_step(GOLDEN) == (2, 1.5)
    assert loss_at_last_step({"train_losses": {"rows": [[1, 2.5], [2, 2.25]]}}) == (2, 2.25)
    assert loss_at_last_step({}) is None


def test_keras3_running_means_turn_back_into_batch_losses():
    from verify.compare import per_batch_from_running_means

    batch_losses = [4.0, 2.0, 3.0, 1.0, 5.0]  # two epochs: 3 steps, then 2
    running = [[1, 4.0], [2, 3.0], [3, 3.0], [4, 1.0], [5, 3.0]]
    recovered = per_batch_from_running_means(running, steps_per_epoch=3)
    assert [step for step, _ in recovered] == [1, 2, 3, 4, 5]
    assert [loss for _, loss in recovered] == batch_losses


def test_prediction_elements_are_measured_against_their_row_without_class_columns():
    golden = {"predictions": {"columns": ["class_ids", "p0", "p1"], "rows": [[1.0, 0.6, 0.8]]}}
    ours = {"predictions": {"columns": ["class_ids", "p0", "p1"], "rows": [[1.0, 0.6000007, 0.8]]}}
    (pair,) = [p for p in compare(golden, ours).pairs if p.where == "predictions.rows.0.1"]
    # row scale: RMS(0.6, 0.8) = sqrt(0.5); the class id 1.0 does not enlarge it
    assert math.isclose(pair.relative, 7e-7 / math.sqrt(0.5), rel_tol=1e-3)


def test_serving_outputs_are_measured_against_the_output_tensor():
    golden = {"serving": {"meta_graph_tags": [["serve"]],
                          "outputs": {"logits": [[3.0, 0.2], [-4.0, 0.0]]}}}
    ours = {"serving": {"meta_graph_tags": [["serve"]],
                        "outputs": {"logits": [[3.0, 0.2000025], [-4.0, 0.0]]}}}
    (pair,) = [p for p in compare(golden, ours).pairs if p.where == "serving.outputs.logits.0.1"]
    assert math.isclose(pair.relative, 2.5e-6 / math.sqrt((9 + 0.04 + 16) / 4), rel_tol=1e-3)
