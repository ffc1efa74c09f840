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

from tests.verify.calibration_trials import with_accuracy
from tests.verify.test_calibration import STEPS, draw, oracle_and_side, truth
from verify import escalation
from verify.calibration import judge_calibrated

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


@pytest.mark.parametrize("side", [{"scale": ("layer_7/kernel", 1.05)}, {"loss_shift": 0.01}],
                         ids=["variable_x1.05", "loss_shifted"])
def test_a_wrong_side_is_not_escalated(side):
    """The synthetic counterparts of the live wrong sides (a learning rate x1.01 moves every loss
    and variable): far beyond the calibrated bounds, never narrow."""
    oracle, ours = oracle_and_side(3, quiet=7, **side)
    judgement = judged(oracle, ours)
    assert not judgement.passed
    assert escalation.narrow_failure(judgement, oracle, ours) is None


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
