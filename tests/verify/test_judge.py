"""The judge: numbers held to rtol where the oracle repeats itself, to its spread where it does not."""

from verify.judge import EXACT, OUTSIDE, WITHIN_SPREAD, first_divergence, judge, series_of, worst_variables


def run(losses, bias=(0.5, -0.25), accuracy=0.75):
    return {"scalars": {"loss": {str(step): value for step, value in enumerate(losses, start=1)}},
            "evaluation": {"eval": {"accuracy": {"3": accuracy}}},
            "variables": {"dense/bias": {"shape": [2], "values": list(bias), "l2": (bias[0] ** 2 + bias[1] ** 2) ** 0.5}}}


def verdicts(judgement):
    return {number.where: number.verdict for number in judgement.numbers}


def test_a_deterministic_oracle_holds_every_number_to_rtol():
    oracle = run([1.0, 0.9, 0.8])
    judgement = judge([oracle, oracle], run([1.0, 0.9, 0.8 * (1 + 5e-5)]), rtol=1e-4)
    assert judgement.passed
    assert set(verdicts(judgement).values()) == {EXACT}

    judgement = judge([oracle, oracle], run([1.0, 0.9, 0.8 * (1 + 5e-4)]), rtol=1e-4)
    assert not judgement.passed
    assert verdicts(judgement)["scalars.loss.3"] == OUTSIDE
    assert first_divergence(judgement) == {"loss": 3}


def test_a_noisy_oracle_widens_the_allowance_to_margin_times_its_spread_envelope():
    first, second = run([1.0, 0.90, 0.80]), run([1.0, 0.91, 0.80])  # the oracle differs at step 2 only
    ours = run([1.0, 0.92, 0.82])
    judgement = judge([first, second], ours, rtol=1e-4, margin=3.0)
    by_where = {number.where: number for number in judgement.numbers}
    assert by_where["scalars.loss.1"].verdict == EXACT
    # step 3 inherits step 2's spread (the envelope): two runs that agree at one step do not
    # make that step exact.
    assert by_where["scalars.loss.3"].spread == by_where["scalars.loss.2"].spread > 0
    assert by_where["scalars.loss.3"].verdict == WITHIN_SPREAD
    assert judgement.passed

    far = judge([first, second], run([1.0, 0.90, 0.90]), rtol=1e-4, margin=3.0)
    assert first_divergence(far) == {"loss": 3}


def test_missing_and_unexpected_numbers_fail():
    oracle = run([1.0, 0.9])
    ours = run([1.0])
    ours["scalars"]["extra"] = {"1": 2.0}
    judgement = judge([oracle, oracle], ours, rtol=1e-4)
    assert not judgement.passed
    assert judgement.missing == ("scalars.loss.2",)
    assert judgement.unexpected == ("scalars.extra.1",)


def test_the_most_different_variables_are_named_with_their_allowance():
    oracle = run([1.0], bias=(0.5, -0.25))
    judgement = judge([oracle, oracle], run([1.0], bias=(0.5, -0.2)), rtol=1e-4)
    [(name, difference, allowed)] = worst_variables(judgement)
    assert name == "dense/bias" and difference > 0.1 and allowed == 1e-4


def test_series_group_steps_variables_and_evaluations():
    assert series_of("scalars.loss.12") == "scalars.loss"
    assert series_of("variables.bert/encoder/layer_0/kernel.values.3") == "variables.bert/encoder/layer_0/kernel"
    assert series_of("variables.a.b/kernel.l2") == "variables.a.b/kernel"
    assert series_of("evaluation.eval.accuracy.40") == "evaluation.eval"
    assert series_of("outputs.predictions.tsv.7") == "outputs.predictions.tsv"
    assert series_of("variables.dense/bias.shape.0") == "variables.dense/bias"


def test_a_tag_tf1_uniquified_is_compared_with_the_sides_plain_tag_and_noted():
    from verify.tag_names import align_uniquified_tags

    oracle = {"scalars": {"loss_1": {"1": 0.7}, "lr": {"1": 0.1}}}
    side = {"scalars": {"loss": {"1": 0.7}, "lr": {"1": 0.1}}}
    aligned, notes = align_uniquified_tags(oracle, side)
    assert aligned["scalars"] == oracle["scalars"]
    assert notes == ["scalars: the oracle's tag `loss_1` is `loss` on this side (TF1 uniquified summary tags by "
                     "graph op names); compared as one series"]
    # Both names on the side: nothing is renamed, the extra tag stays a difference.
    both = {"scalars": {"loss": {"1": 0.7}, "loss_1": {"1": 0.7}, "lr": {"1": 0.1}}}
    assert align_uniquified_tags(oracle, both) == (both, [])


def test_output_files_whose_shape_the_oracle_does_not_repeat_are_left_out_of_training_with_a_note():
    from verify.comparable import drop_unstable_outputs

    runs = [{"outputs": {"nbest.json": [0.5, 0.2], "eval_results.txt": [0.7]}},
            {"outputs": {"nbest.json": [0.6], "eval_results.txt": [0.7]}}]
    ours = {"outputs": {"nbest.json": [0.1, 0.2, 0.3], "eval_results.txt": [0.7]}}
    kept_runs, kept_ours, notes = drop_unstable_outputs(runs, ours)
    assert [run["outputs"] for run in kept_runs] == [{"eval_results.txt": [0.7]}] * 2
    assert kept_ours["outputs"] == {"eval_results.txt": [0.7]}
    assert notes == ["outputs.nbest.json: the oracle's runs wrote [1, 2] numbers; not compared in the training "
                     "phase (compared in the exact phase)"]
