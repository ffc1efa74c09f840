"""Escalation (verify/escalation.py): which failed training phases are narrow enough for more
oracle runs to turn, and what judging again against all the runs gives.

Harvests are test_calibration.py's synthetic runs (normal noise), with an evaluation accuracy
shaped like brightmart/albert_zh's run_classifier in the test bed: 23 examples, 14/23 in every
oracle run, 9/23 on a side whose logits crossed zero while its eval loss stays within the
oracle's spread.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tests.verify.calibration_trials import PREDICTIONS_LOSS_NOISE, with_accuracy, with_predictions, with_two_valued
from tests.verify.test_calibration import STEPS, draw, dropout_draw, dropout_truth, oracle_and_side, truth
from verify import escalation
from verify.calibration import ByTriples, judge_calibrated

ACCURACY = f"evaluation.eval.eval_accuracy.{STEPS}"


def runs(seed: int, count: int, *, crossed: tuple[int, ...] = ()):
    """`count` oracle runs (those indexed in `crossed` at 9/23) and a side at 9/23, from one model."""
    rng = np.random.default_rng(seed)
    model = truth(rng)
    oracle = [with_accuracy(draw(rng, model, heavy=False), 1.0 if k in crossed else 0.0) for k in range(count)]
    return oracle, with_accuracy(draw(rng, model, heavy=False), 1.0)


def judged(oracle, side):
    return judge_calibrated(oracle, side, rtol=1e-4, margin=3.0)


def test_an_accuracy_that_crossed_beside_losses_within_the_spread_fails_narrowly():
    oracle, side = runs(1, 3)
    judgement = judged(oracle, side)
    assert not judgement.passed and [n.where for n in judgement.outside] == [ACCURACY]
    reason = escalation.narrow_failure(judgement, oracle, side)
    assert reason is not None
    assert f"{ACCURACY} 9/23 against 14/23 in all 3 oracle runs, a count ratio" in reason
    assert "within their allowance" in reason


def test_more_oracle_runs_that_cross_too_make_it_pass_and_runs_that_never_cross_keep_the_fail():
    oracle, side = runs(1, 6, crossed=(4,))
    assert not judged(oracle[:3], side).passed
    assert judged(oracle, side).passed  # one of 6 runs crossed: the oracle reaches 9/23 itself
    never, side = runs(1, 6)
    after = judged(never, side)
    assert not after.passed and not after.calibration.passed
    assert after.calibration.failed_sections == ["evaluation"]


def test_a_crossed_accuracy_whose_eval_loss_is_outside_too_is_not_narrow():
    oracle, side = runs(1, 3)
    side = copy.deepcopy(side)
    side["evaluation"]["eval"]["loss"][str(STEPS)] *= 1.1  # the evaluation itself differs, not one crossing
    judgement = judged(oracle, side)
    assert not judgement.passed
    assert escalation.narrow_failure(judgement, oracle, side) is None


def test_a_wrong_side_far_beyond_the_count_bound_is_not_escalated():
    """The synthetic counterpart of the live wrong sides (a learning rate x1.01 moves every loss and
    variable): a quiet variable x1.05, outside in more numbers than 2x what the oracle misses."""
    oracle, ours = oracle_and_side(3, quiet=7, scale=("layer_7/kernel", 1.05))
    judgement = judged(oracle, ours)
    assert not judgement.passed
    assert escalation.narrow_failure(judgement, oracle, ours) is None


def test_a_shifted_loss_on_a_random_oracle_is_escalated_and_fails_every_triple():
    """A loss series shifted by 5-10x its noise: 7 of 8 steps outside (within 2x the count bound of 4),
    worst ratio 20 (3x the bound): escalated as a random oracle's FAIL, and judged by triples it fails
    all 20 (no oracle run fails more than 70% of the others' triples), so it still FAILs."""
    runs, ours = oracle_and_side(3, runs=6, quiet=7, loss_shift=0.01)
    judgement = judged(runs[:3], ours)
    assert not judgement.passed
    assert escalation.narrow_failure(judgement, runs[:3], ours) is not None
    again = escalation.judge_again(judgement, runs[:3], runs, ours)
    assert not again.passed and again.calibration.failed_triples == 20
    assert dict(again.calibration.section_failures)["scalars"] == 20


def test_a_missing_number_is_not_escalated():
    oracle, side = runs(1, 3)
    side = copy.deepcopy(side)
    del side["evaluation"]["eval"]["loss"]
    judgement = judged(oracle, side)
    assert judgement.missing and escalation.narrow_failure(judgement, oracle, side) is None


def test_a_passing_side_or_an_oracle_without_self_check_is_not_escalated():
    oracle, side = runs(1, 3, crossed=(1,))
    assert judged(oracle, side).passed and escalation.narrow_failure(judged(oracle, side), oracle, side) is None
    two, side = runs(1, 2)
    assert escalation.narrow_failure(judged(two, side), two, side) is None  # no calibration with 2 runs


def test_continuous_numbers_just_beyond_the_calibrated_bounds_are_escalated_and_judged_by_triples():
    """The generator's exchangeable sides the calibrated rule fails (test_calibration: seed 6, one loss
    step at 4.2x its allowance; seed 7, one evaluation metric at 1.8x): its oracle is random beyond
    rounding (every step-1 loss differs by ~1e-3), so they are continuous near misses, judged again
    against every triple of the runs (judging against all the runs at once let 7 more of 40 loss
    series shifted by 5-10x their noise pass: docs/results/2026-11-28-escalation.md)."""
    for seed in (6, 7):
        rng = np.random.default_rng(seed)
        model = truth(rng)
        oracle, side = [draw(rng, model) for _ in range(3)], draw(rng, model)  # oracle_and_side(seed)
        judgement = judged(oracle, side)
        assert not judgement.passed
        reason = escalation.narrow_failure(judgement, oracle, side)
        assert reason is not None and reason.startswith("the oracle is random beyond rounding"), seed
        again = escalation.judge_again(judgement, oracle, oracle + [draw(rng, model) for _ in range(3)], side)
        # measured: seed 6 fails 6 of the 20 triples (PASS), seed 7 fails 11 (still FAIL: its metric is
        # beyond most triples' bounds, as a real difference would be)
        assert again.calibration.triples == 20 and again.passed == (seed == 6), seed


def test_a_flipped_count_ratio_is_judged_again_against_all_the_runs():
    oracle, side = runs(1, 6, crossed=(4,))
    before = judged(oracle[:3], side)
    again = escalation.judge_again(before, oracle[:3], oracle, side)
    assert again.passed and not hasattr(again.calibration, "triples")


def test_the_summary_counts_the_added_runs_and_their_time():
    assert escalation.summary([{"model_dir": "run1"}, {"model_dir": "run2"}]) is None
    added = escalation.summary([{"model_dir": "run1"}, {"model_dir": "run2"}, {"model_dir": "run3"},
                                {"model_dir": "run4", "escalation": True, "seconds": 40.5},
                                {"model_dir": "run5", "escalation": True, "seconds": 39.5}])
    assert added == {"runs_before": 3, "runs_added": 2, "runs_kept": 0, "seconds": 80.0}
    kept = escalation.summary([{"model_dir": "run1"}, {"model_dir": "run2"}, {"model_dir": "run3"},
                               {"model_dir": "run4", "escalation": True, "seconds": 40.5, "kept": True},
                               {"model_dir": "run5", "escalation": True, "seconds": 39.5}])
    assert kept == {"runs_before": 3, "runs_added": 2, "runs_kept": 1, "seconds": 39.5}
    assert escalation.summary_line(kept) == ("escalated: a side failed narrowly against 3 oracle runs, 2 more run(s), "
                                             "1 of them kept by an earlier verify in 40 s")


def test_the_note_says_why_how_many_runs_and_the_verdict():
    oracle, side = runs(1, 6)
    record = escalation.Escalation(reasons={"migrated": "evaluation: ..."}, runs_before=3, runs_added=3,
                                   seconds=121.0)
    line = escalation.note(record, "migrated", judged(oracle, side))
    assert line == ("escalated: the training phase failed narrowly against 3 oracle runs (evaluation: ...); "
                    "3 more oracle run(s) in 121 s, judged again against all 6: FAIL")


def test_a_continuous_number_the_oracle_repeats_is_no_flipped_count_ratio():
    # a number in [0, 1] every oracle run repeats exactly (here a hyperparameter written to an output
    # file, 0.2) is no accuracy: a side at 0.25 is a different program, not an example that flipped,
    # so more oracle runs cannot turn it (before: it counted as a count ratio k/n and was escalated)
    oracle, side = runs(1, 3)
    oracle = [dict(run, evaluation={"eval": {**run["evaluation"]["eval"], "eval_accuracy": {str(STEPS): 14 / 23}}},
                   outputs={"model_params.txt": [0.99, 0.2]}) for run in oracle]
    side = dict(side, evaluation={"eval": {**side["evaluation"]["eval"], "eval_accuracy": {str(STEPS): 14 / 23}}},
                outputs={"model_params.txt": [0.99, 0.25]})
    judgement = judged(oracle, side)
    assert not judgement.passed and [n.where for n in judgement.outside] == ["outputs.model_params.txt.1"]
    assert escalation.flipped_count_ratio(judgement, oracle, side) is None


# A random oracle whose numbers are two-valued (the test bed's tpu_efficientnet, unseeded drop-connect):
# calibration_trials' `two_valued` generator, a batch-norm moving mean per block at ~1.5e-8 in a run
# that dropped no sample in that block, ~3.5e-3 in one that did.

NO_DROP, DROPPED = (False, False), (True, False)


def two_valued(seed: int):
    """draw(dropped): one run of a tiny BERT with unseeded dropout, its block moving means as `dropped` says."""
    rng = np.random.default_rng(seed)
    model, shape = dropout_truth(rng), rng.uniform(0.8, 1.2, 16)
    return lambda dropped: with_two_valued(rng, dropout_draw(rng, model), shape, dropped)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_side_on_the_value_no_oracle_run_drew_is_escalated(seed):
    """All 3 oracle runs dropped no sample in block 0, the side did: its moving mean is 3.5e-3 against
    ~1.5e-8, a worst ratio of ~1.4e5 against the oracle's allowed 17-46 -- the bound that kept this FAIL
    from escalation -- while it misses about as many numbers as the oracle does (32-35, allowed 28-32).
    A side on the oracle's value passes outright."""
    draw_run = two_valued(seed)
    oracle, side = [draw_run(NO_DROP) for _ in range(3)], draw_run(DROPPED)
    judgement = judged(oracle, side)
    assert not judgement.passed and judgement.calibration.failed_sections == ["variables"]
    section = judgement.calibration.sections[-1]
    assert section.side_worst.worst_ratio > 1e4 > 100 * section.allowed_ratio
    reason = escalation.narrow_failure(judgement, oracle, side)
    assert reason is not None and reason.startswith("the oracle is random beyond rounding")
    assert "beyond 2x: numbers a random oracle may reach on another draw" in reason
    assert judged(oracle, draw_run(NO_DROP)).passed


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_triples_pass_it_when_an_added_run_draws_its_value_and_fail_it_when_none_does(seed):
    """One of the 3 added runs dropped too: the side's variables fail the 10 triples without that run, and that
    run, held out, fails all the others' triples (share 100%), so the side passes (10/20 <= 100%,
    never all). No added run dropped: the side fails all 20 triples, FAIL."""
    draw_run = two_valued(seed)
    oracle, side = [draw_run(NO_DROP) for _ in range(3)], draw_run(DROPPED)
    judgement = judged(oracle, side)
    joined = escalation.judge_again(judgement, oracle, oracle + [draw_run(DROPPED), draw_run(NO_DROP),
                                                                 draw_run(NO_DROP)], side)
    assert isinstance(joined.calibration, ByTriples) and joined.passed
    assert dict(joined.calibration.section_failures)["variables"] == 10  # the triples without the added run
    assert 10 <= joined.calibration.failed_triples < 20 and joined.calibration.allowed_share == 1.0
    never = escalation.judge_again(judgement, oracle, oracle + [draw_run(NO_DROP) for _ in range(3)], side)
    assert not never.passed and never.calibration.failed_triples == 20


# Predictions that move together by the draw (calibration_trials' `predictions` cases: bert run_classifier's
# outputs, every one of 36 numbers at its run's level), and a step-1 loss that barely moves.

def predictions(seed: int, count: int = 3, **differs):
    """`count` oracle runs and a side of calibration_trials' `predictions` generator (trial's draw order)."""
    rng = np.random.default_rng(seed)
    model = dropout_truth(rng)

    def one(**how):
        return with_predictions(rng, dropout_draw(rng, model, loss_noise=PREDICTIONS_LOSS_NOISE, **how))

    oracle = [one() for _ in range(3)]
    side = one(**differs)
    return oracle + [one() for _ in range(count - 3)], side


def test_predictions_within_the_spread_but_beyond_their_count_bound_are_escalated_and_pass_by_triples():
    """The shape of a cold test-bed run's false FAIL (bert run_classifier, migrated side): the 3 oracle runs'
    predictions lie close (the oracle against itself 2 of 36 outside against 2 runs, allowed 6), the side's
    lie 14 outside against 2 runs, none beyond 3x the spread of all 3. The count bound (14 > 2 x 6) kept it
    from escalation; the spread rule's PASS of the section no longer does, and by triples it passes."""
    runs, side = predictions(128, 6)
    judgement = judged(runs[:3], side)
    assert not judgement.passed and judgement.calibration.failed_sections == ["outputs"]
    outputs = next(s for s in judgement.calibration.sections if s.section == "outputs")
    assert outputs.side_outside > escalation.NARROW * outputs.allowed_outside
    assert not any(n.where.startswith("outputs.") for n in judgement.outside)  # the spread rule passes outputs
    reason = escalation.narrow_failure(judgement, runs[:3], side)
    assert reason is not None and "outputs: 14 outside against 2 runs (allowed 6), none against all 3" in reason
    again = escalation.judge_again(judgement, runs[:3], runs, side)
    assert isinstance(again.calibration, ByTriples) and again.passed and again.calibration.failed_triples < 10


def test_a_section_the_spread_rule_fails_keeps_its_count_bound():
    """The exemption is the spread rule's PASS of the section: the same predictions moved beyond 3x the
    spread of all 3 runs (every one +0.2) are outside in both rules, 36 > 2 x 6: not escalated."""
    runs, side = predictions(128)
    side = copy.deepcopy(side)
    side["outputs"]["test_results.tsv"] = [v + 0.2 for v in side["outputs"]["test_results.tsv"]]
    judgement = judged(runs, side)
    assert not judgement.passed and any(n.where.startswith("outputs.") for n in judgement.outside)
    assert escalation.narrow_failure(judgement, runs, side) is None


def test_wrong_sides_on_predictions_that_move_together_still_fail():
    """A learning rate x1.01 moves every variable (here: every variable x1.01, 1-30x its noise): far beyond
    the count bound of the variables the spread rule fails, never escalated. A renamed layer: missing."""
    runs, side = predictions(128)
    wrong = copy.deepcopy(side)
    for variable in wrong["variables"].values():
        variable["values"], variable["l2"] = [v * 1.01 for v in variable["values"]], variable["l2"] * 1.01
    judgement = judged(runs, wrong)
    assert not judgement.passed and escalation.narrow_failure(judgement, runs, wrong) is None
    renamed = copy.deepcopy(side)
    renamed["variables"]["layer_7/kernel_1"] = renamed["variables"].pop("layer_7/kernel")
    judgement = judged(runs, renamed)
    assert judgement.missing and not judgement.passed
    assert escalation.narrow_failure(judgement, runs, renamed) is None


def test_a_kept_folder_is_judged_as_verify_did_and_again_with_the_runs_it_holds_beyond(tmp_path, capsys):
    """verify.rejudge judges against runs 1..--oracle-runs (3), says whether escalation calls a FAIL narrow, and
    with runs 4-6 in the folder judges it again as escalation does (by triples, not against all 6 at once)."""
    import json

    from verify import rejudge

    runs, side = predictions(128, 6)
    (tmp_path / "oracle").mkdir()
    for index, run in enumerate(runs, 1):
        (tmp_path / "oracle" / f"run{index}.harvest.json").write_text(json.dumps(run))
    (tmp_path / "migrated").mkdir()
    (tmp_path / "migrated" / "training.harvest.json").write_text(json.dumps(side))
    assert rejudge.rejudge(tmp_path, runs=3)["migrated"].oracle_runs == 3
    assert rejudge.main([str(tmp_path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"{tmp_path.name} migrated: FAIL (3 oracle runs; spread rule FAIL; failed sections: outputs)"
    assert printed[1].startswith("    escalation: narrow: the oracle is random beyond rounding")
    assert printed[2] == f"{tmp_path.name} migrated after escalation: PASS (6 oracle runs)"
