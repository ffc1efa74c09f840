"""Count ratios judged in steps of their resolution (verify/discrete.py), as examples.

The harvests are small and synthetic, shaped like google-research/bert's run_pretraining in the
test bed (20 steps, TF 1.15, 3 oracle runs): an evaluation folder with two losses that vary
between oracle runs and two accuracies all three runs repeat, and eval_results.txt holding the
same numbers. A migrated side there had masked_lm_accuracy 19/160 against the oracle's 18/160.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from verify import calibration, discrete
from verify.calibration import judge_calibrated
from verify.pipeline import Phase
from verify.report import _judgement_diagnosis, _phase_json


def f32(value: float) -> float:
    """The number as an event file holds it (float32)."""
    return float(np.float32(value))


def run(masked_lm_loss: float, next_sentence_loss: float, accuracy: float = 18 / 160, step: float = 20.0,
        loss: float = 7.9) -> dict:
    metrics = {"masked_lm_accuracy": f32(accuracy), "masked_lm_loss": f32(masked_lm_loss),
               "next_sentence_accuracy": 0.5, "next_sentence_loss": f32(next_sentence_loss), "global_step": step}
    return {"scalars": {"loss": {"1": loss}},
            "evaluation": {"eval": {name: {"20": value} for name, value in metrics.items()}},
            # eval_results.txt: `key = value` lines in sorted order, printed from float32 (shortest repr)
            "outputs": {"eval_results.txt": [step, float(str(np.float32(loss))), float(str(np.float32(accuracy))),
                                             float(str(np.float32(masked_lm_loss))), 0.5,
                                             float(str(np.float32(next_sentence_loss)))]},
            "variables": {"w": {"shape": [2], "values": [0.5, -0.25], "l2": 0.5590169943749475}},
            "final_checkpoint": "model.ckpt-20"}


# three oracle runs: the losses differ (2.8e-3 at most), every run has 18 of 160 masked tokens right
ORACLE = [run(7.4310, 0.6931), run(7.4518, 0.6925), run(7.4390, 0.6940)]


def judged(side: dict, oracle=ORACLE):
    return judge_calibrated(oracle, side, rtol=1e-4, margin=3.0)


def test_one_masked_token_flipped_passes_and_is_named():
    side = run(7.4401, 0.6933, accuracy=19 / 160)  # the migrated side of the test bed's run of 2026-11-28
    judgement = judged(side)
    assert judgement.passed
    assert not judgement.outside
    notes = calibration.notes(judgement)
    assert any(line.startswith("2 count ratio(s) one step of their resolution from a value all 3 oracle runs "
                               "repeat") and "evaluation.eval.masked_lm_accuracy.20 0.11875 against 0.1125 "
                               "(a step of 1/160)" in line for line in notes), notes
    numbers = {n["where"]: n for n in _phase_json(Phase("training", judgement=judgement, notes=notes))["numbers"]}
    accuracy = numbers["evaluation.eval.masked_lm_accuracy.20"]
    assert accuracy["verdict"] == "within spread" and accuracy["allowed"] == pytest.approx(1 / 18, rel=1e-5)


def test_before_the_step_rule_the_same_side_failed_on_the_accuracy_alone():
    side = run(7.4401, 0.6933, accuracy=19 / 160)
    spread_only = calibration.judge(ORACLE, side, rtol=1e-4, margin=3.0)
    assert [n.where for n in spread_only.outside] == ["evaluation.eval.masked_lm_accuracy.20",
                                                      "outputs.eval_results.txt.2"]
    assert spread_only.outside[0].difference / spread_only.outside[0].allowed > 5  # 5.6% against 3 x 2.8e-3


@pytest.mark.parametrize("accuracy", [21 / 160, 26 / 160, 0.25, 18 / 160 * 1.03, 0.1145])
def test_more_than_one_step_or_off_the_lattice_still_fails(accuracy):
    # three tokens; eight; a round number; 3% off and 0.1145 (floats a wrong side computes)
    judgement = judged(run(7.4401, 0.6933, accuracy=accuracy))
    assert not judgement.passed
    assert "evaluation.eval.masked_lm_accuracy.20" in [n.where for n in judgement.outside]
    assert any("masked_lm_accuracy" in line for line in _judgement_diagnosis(judgement))


def test_the_lattice_read_from_two_values_can_be_coarser_than_the_count():
    # 20/160 = 1/8 and 18/160 = 9/80 are one step of 1/80 apart: nothing in the two values says the
    # count is 160 and not 80, so two tokens pass here (the documented limit: n >= 20, a change <= 1/20)
    assert discrete.step(f32(18 / 160), f32(20 / 160)) == 80
    assert judged(run(7.4401, 0.6933, accuracy=20 / 160)).passed


def test_a_global_step_off_by_one_is_not_a_count_ratio():
    judgement = judged(run(7.4401, 0.6933, step=21.0))
    assert not judgement.passed
    assert "evaluation.eval.global_step.20" in [n.where for n in judgement.outside]


def test_a_shifted_loss_still_fails_beside_a_flipped_token():
    judgement = judged(run(7.4401 * 1.05, 0.6933, accuracy=19 / 160))
    assert not judgement.passed
    assert "evaluation.eval.masked_lm_loss.20" in [n.where for n in judgement.outside]


def test_a_deterministic_oracle_allows_no_step():
    oracle = [ORACLE[0]] * 3
    judgement = judged(run(7.4310, 0.6931, accuracy=19 / 160), oracle)
    assert not judgement.passed and discrete.note(judgement) is None


def test_the_resolution_is_read_from_the_values():
    assert discrete.denominator(f32(18 / 160)) == 80 and discrete.denominator(0.11875) == 160
    assert discrete.denominator(f32(14 / 23)) == 23
    assert discrete.denominator(1.5) is None and discrete.denominator(-0.25) is None
    assert discrete.step(f32(18 / 160), f32(19 / 160)) == 160
    assert discrete.step(0.1125, 0.11875) == 160  # as eval_results.txt prints them
    assert discrete.step(f32(18 / 160), f32(21 / 160)) is None  # three steps
    assert discrete.step(0.5, 0.75) is None  # one step of 1/4: coarser than MIN_DENOMINATOR
    assert discrete.step(f32(18 / 160), f32(18 / 160 * 1.01)) is None


def test_a_kept_work_folder_is_judged_again_without_running(tmp_path, capsys):
    from verify import rejudge

    for index, oracle in enumerate(ORACLE, 1):
        (tmp_path / "oracle").mkdir(exist_ok=True)
        (tmp_path / "oracle" / f"run{index}.harvest.json").write_text(json.dumps(oracle))
    for side, accuracy in (("runner", 18 / 160), ("migrated", 19 / 160)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "training.harvest.json").write_text(json.dumps(run(7.4401, 0.6933, accuracy=accuracy)))
    judged = rejudge.rejudge(tmp_path)
    assert sorted(judged) == ["migrated", "runner"] and all(j.passed and j.oracle_runs == 3 for j in judged.values())
    assert rejudge.main([str(tmp_path), "--margin", "0.1", "--notes"]) == 0  # a margin that fails both
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith(f"{tmp_path.name} runner: FAIL (3 oracle runs; spread rule FAIL; failed sections: ")
    assert printed[1].startswith("    oracle against itself (each of 3 runs held out")


# --- a count ratio on evidence: its name (or a copy of a named one), not a value in [0, 1] ---------


def with_eval(side: dict, **numbers: float) -> dict:
    """`side` with more evaluation numbers at step 20."""
    side = json.loads(json.dumps(side))
    side["evaluation"]["eval"].update({name: {"20": value} for name, value in numbers.items()})
    return side


def test_a_continuous_number_the_oracle_repeats_gets_no_step():
    # a loss term 0.3 every oracle run repeats (deterministic: a fixed penalty) beside losses that vary;
    # 0.35 on the side is 17% away, yet 3/10 and 7/20 are "one step of 1/20" apart on a lattice
    oracle = [with_eval(run_, weight_penalty=0.3) for run_ in ORACLE]
    side = with_eval(run(7.4401, 0.6933), weight_penalty=0.35)
    assert discrete.step(0.3, 0.35) == 20  # the lattice alone would forgive it
    judgement = judged(side, oracle)
    assert not judgement.passed
    assert [n.where for n in judgement.outside] == ["evaluation.eval.weight_penalty.20"]
    assert discrete.note(judgement) is None


def test_a_real_accuracy_beside_it_still_gets_its_step():
    oracle = [with_eval(run_, weight_penalty=0.3) for run_ in ORACLE]
    judgement = judged(with_eval(run(7.4401, 0.6933, accuracy=19 / 160), weight_penalty=0.3), oracle)
    assert judgement.passed
    assert [n.where for n in discrete.one_step_numbers(judgement)] == ["evaluation.eval.masked_lm_accuracy.20",
                                                                        "outputs.eval_results.txt.2"]


def test_the_lattice_alone_is_no_evidence():
    # a Keras batch loss of the test bed (float32) lies within float32 rounding of 1208/3985
    assert discrete.denominator(0.3031367063522339) == 3985
    judgement = calibration.judge(ORACLE, run(7.4401, 0.6933), rtol=1e-4, margin=3.0)
    ratios = discrete.count_ratios(judgement)
    assert "evaluation.eval.masked_lm_accuracy.20" in ratios and "evaluation.eval.next_sentence_accuracy.20" in ratios
    assert not any("loss" in where or "global_step" in where for where in ratios)


@pytest.mark.parametrize("where,named", [
    ("evaluation.eval.eval_accuracy.8", True), ("scalars.keras/epoch/val_acc.3", True),
    ("evaluation.eval.top_1_accuracy.4", True), ("scalars.keras/batch/sparse_categorical_accuracy.7", True),
    ("evaluation.eval.precision.10", True), ("evaluation.eval.recall.10", True),
    ("evaluation.eval.loss.20", False), ("scalars.learning_rate.5", False), ("scalars.current_epoch.2", False),
    ("outputs.model_params.txt.2", False), ("evaluation.eval.accumulated_loss.20", False),
    ("variables.dense/kernel.values.0", False)])
def test_names_that_say_count_ratio(where, named):
    assert discrete.named_count_ratio(where) is named


def test_an_unnamed_copy_of_an_accuracy_is_one_too():
    # tpu_efficientnet writes its top-1 accuracy again to best_objective.txt; model_params.txt holds
    # hyperparameters (0.2, 0.25) that are no count, even where a side's value lands on a lattice
    def harvest(top_1: float, drop_connect: float) -> dict:
        return {"evaluation": {"eval": {"top_1_accuracy": {"4": top_1}, "loss": {"4": 7.2}}},
                "outputs": {"best_objective.txt": [top_1], "model_params.txt": [0.99, drop_connect]}}

    judgement = calibration.judge([harvest(0.0, 0.2)] * 3, harvest(0.25, 0.25), rtol=1e-4, margin=3.0)
    assert discrete.count_ratios(judgement) == {"evaluation.eval.top_1_accuracy.4", "outputs.best_objective.txt.0"}
