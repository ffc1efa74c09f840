"""The oracle against itself (verify/calibration.py): a side that behaves like one more oracle run
passes although some of its numbers fall outside 3x the spread; a real difference still fails.

Runs are synthetic harvests shaped like verify/harvest.py's output (scalars per step, an
evaluation folder, variables as 16 values + L2 norm + shape), drawn with fixed seeds.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from verify import calibration
from verify.calibration import judge_calibrated
from verify.judge import EXACT, worst_variables
from verify.pipeline import Phase
from verify.report import _judgement_cells, _judgement_diagnosis, _phase_json
from verify.summary import summarise_phase

VARIABLES, STEPS = 40, 8


def truth(rng):
    """The program's expected numbers and how noisy each variable is (1e-4..1e-2 of its RMS)."""
    return {"loss": np.linspace(2.0, 1.0, STEPS), "eval": np.array([0.7, 1.3]),
            "variables": [rng.normal(0, 1, 16) * 10 ** rng.uniform(-2, 0) for _ in range(VARIABLES)],
            "noise": [10 ** rng.uniform(-4, -2) for _ in range(VARIABLES)]}


def draw(rng, model, *, heavy=True, scale=None, loss_shift=0.0):
    """One run: the truth plus noise (Student t with 3 degrees of freedom: optimizer slots and
    dropout are heavy-tailed), optionally a variable scaled by `scale` = (name, factor)."""
    def noise(size):
        return rng.standard_t(3, size) / math.sqrt(3) if heavy else rng.normal(0, 1, size)

    loss = model["loss"] * (1 + 1e-3 * noise(STEPS)) + loss_shift
    variables = {}
    for index, (values, sd) in enumerate(zip(model["variables"], model["noise"])):
        rms = math.sqrt(float(np.mean(values * values)))
        drawn = values + sd * rms * noise(16)
        if scale and scale[0] == f"layer_{index}/kernel":
            drawn = drawn * scale[1]
        variables[f"layer_{index}/kernel"] = {"shape": [4, 4], "values": [float(v) for v in drawn],
                                              "l2": float(np.linalg.norm(drawn))}
    evaluation = model["eval"] * (1 + 3e-3 * noise(2))
    return {"scalars": {"loss": {str(step): float(v) for step, v in enumerate(loss, start=1)}},
            "evaluation": {"eval": {"loss": {str(STEPS): float(evaluation[0])},
                                    "accuracy": {str(STEPS): float(evaluation[1])}}},
            "variables": variables, "final_checkpoint": f"model.ckpt-{STEPS}"}


def dropout_truth(rng, variables=120):
    """A program shaped like the test bed's tiny BERTs with unseeded dropout: one logged loss (step 1),
    an evaluation of 2 numbers, variables of 2, 4 or 16 elements, half of them optimizer slots."""
    sizes = rng.choice([2, 4, 16, 16, 16, 16], variables)
    return {"loss": 0.69, "eval": np.array([0.7, 0.6]),
            "variables": [rng.normal(0, 1, int(size)) * 10 ** rng.uniform(-2, 0) for size in sizes],
            "noise": [10 ** rng.uniform(-3.5, -2) for _ in range(variables)]}


def dropout_draw(rng, model, *, scale=None, loss_shift=0.0, loss_noise=2e-3):
    """One run of dropout_truth: every run an independent random draw (normal noise, dropout's masks
    averaged over many units), the step-1 loss included (2e-3 of it: bert run_classifier's oracle runs
    differ by 1.9e-3 there). An optimizer slot's sampled elements barely move while its L2 norm (its
    few largest elements) moves by its full noise: the real harvests' worst numbers are such norms.
    `loss_noise`: the step-1 loss's relative noise (a start state whose logits are near zero keeps it small)."""
    loss = model["loss"] * (1 + loss_noise * rng.normal()) + loss_shift
    variables = {}
    for index, (values, sd) in enumerate(zip(model["variables"], model["noise"])):
        rms = math.sqrt(float(np.mean(values * values)))
        drawn = values + sd * rms * rng.normal(0, 1, len(values))
        l2 = float(np.linalg.norm(drawn))
        if index % 2:
            drawn = values + (drawn - values) * 0.05
            l2 = float(np.linalg.norm(values) * (1 + sd * rng.normal()))
        if scale and scale[0] == f"layer_{index}/kernel":
            drawn, l2 = drawn * scale[1], l2 * scale[1]
        variables[f"layer_{index}/kernel"] = {"shape": [len(values)], "values": [float(v) for v in drawn], "l2": l2}
    evaluation = model["eval"] * (1 + 3e-3 * rng.normal(0, 1, 2))
    return {"scalars": {"loss_1": {"1": float(loss)}},
            "evaluation": {"eval": {"eval_loss": {"16": float(evaluation[0])}, "metric": {"16": float(evaluation[1])}}},
            "variables": variables, "final_checkpoint": "model.ckpt-16"}


def oracle_and_side(seed, runs=3, quiet=None, **side):
    """`runs` oracle runs and a side, all drawn from one model; `quiet`: a variable index given 1e-4 noise."""
    rng = np.random.default_rng(seed)
    model = truth(rng)
    if quiet is not None:
        model["noise"][quiet] = 1e-4
    heavy = side.pop("heavy", True)
    return [draw(rng, model, heavy=heavy) for _ in range(runs)], draw(rng, model, heavy=heavy, **side)


@functools.lru_cache(maxsize=None)
def exchangeable(seed):
    """The judgement of a side drawn exactly like the oracle's 3 runs."""
    return judge_calibrated(*oracle_and_side(seed), rtol=1e-4, margin=3.0)


def test_a_side_drawn_like_the_oracle_fails_the_spread_rule_often_and_the_calibrated_rule_rarely():
    spread_rule_fails, calibrated_fails = [], []
    for seed in range(16):
        judgement = exchangeable(seed)
        assert judgement.calibration is not None and not judgement.missing
        spread_rule_fails += [seed] if not judgement.passed_by_spread else []
        calibrated_fails += [seed] if not judgement.passed else []
    # Measured with these seeds: the spread rule fails 6 of 16 exchangeable sides (seeds 4, 6, 7, 11, 13, 14),
    # the calibrated rule 2 (6: one loss step at 4.2x its allowance against two runs, more than 3x the held-out
    # oracle runs' worst; 7: one evaluation metric, 1.8x), both also failed by the spread rule.
    assert len(spread_rule_fails) >= 5, spread_rule_fails
    assert len(calibrated_fails) <= 2, calibrated_fails
    assert set(calibrated_fails) <= set(spread_rule_fails)


def test_an_exchangeable_side_outside_the_spread_is_passed_with_the_oracles_own_figures_shown():
    seed = next(seed for seed in range(16) if not exchangeable(seed).passed_by_spread and exchangeable(seed).passed)
    judgement = exchangeable(seed)
    overall = judgement.calibration.overall
    assert judgement.outside and overall.oracle_outside > 0  # the oracle misses against itself too
    notes = calibration.notes(judgement)
    assert notes[0].startswith(f"oracle against itself (each of 3 runs held out, judged against the other 2): "
                               f"{overall.oracle_outside} of {len(judgement.numbers)} outside, worst ratio ")
    assert "this side against the same runs" in notes[0] and notes[0].endswith("calibrated verdict PASS")
    assert any(line.startswith("self-check variables: ") for line in notes)
    assert "within what the oracle misses against itself: " in notes[-1]
    assert all(number.where in notes[-1] for number in judgement.outside[:5])
    phase = Phase("training", judgement=judgement, notes=notes)
    assert phase.status == "PASS"
    compared, *_ , held = _judgement_cells(phase)
    assert f"oracle against itself: {overall.oracle_outside} of {len(judgement.numbers)} outside" in compared
    assert f"this side: {overall.side_outside} of {len(judgement.numbers)} outside" in compared
    assert "calibrated per section" in held
    document = _phase_json(phase)
    assert document["passed_by_spread"] is False and document["calibration"]["passed"] is True
    assert {s["section"] for s in document["calibration"]["sections"]} == {"evaluation", "scalars", "variables"}
    row = summarise_phase({**document, "sections": {k: v for k, v in document["sections"].items()}})
    assert row.startswith("PASS: ") and "oracle against itself:" in row


def test_one_variable_off_by_5_percent_fails_and_is_named():
    oracle, side = oracle_and_side(3, quiet=7, scale=("layer_7/kernel", 1.05))
    judgement = judge_calibrated(oracle, side, rtol=1e-4, margin=3.0)
    assert not judgement.passed
    assert judgement.calibration.failed_sections == ["variables"]
    worst = judgement.calibration.overall.side_worst
    assert worst.worst_at.startswith("variables.layer_7/kernel.")
    # 5% of a variable whose noise is 1e-4: far beyond anything the oracle does against itself
    assert worst.worst_ratio > 10 * judgement.calibration.overall.oracle_worst.worst_ratio
    assert len(judgement.outside) == 17  # its 16 values and its L2 norm; nothing else
    assert worst_variables(judgement)[0][0] == "layer_7/kernel"
    assert any("layer_7/kernel" in line for line in _judgement_diagnosis(judgement))


def test_a_shifted_loss_series_fails_in_the_scalars_section():
    oracle, side = oracle_and_side(5, loss_shift=0.01)  # 0.5-1% of the loss, ~10x its noise
    judgement = judge_calibrated(oracle, side, rtol=1e-4, margin=3.0)
    assert not judgement.passed
    assert judgement.calibration.failed_sections == ["scalars"]


def test_the_bug_fails_with_every_seed():
    for seed in range(8):
        oracle, side = oracle_and_side(seed, quiet=7, scale=("layer_7/kernel", 1.05))
        judgement = judge_calibrated(oracle, side, rtol=1e-4, margin=3.0)
        assert not judgement.passed and "variables" in judgement.calibration.failed_sections, seed


def test_missing_numbers_still_fail_a_calibrated_judgement():
    oracle, side = oracle_and_side(0)
    del side["variables"]["layer_0/kernel"]
    judgement = judge_calibrated(oracle, side, rtol=1e-4, margin=3.0)
    assert judgement.missing and not judgement.passed


def test_a_deterministic_oracle_keeps_the_exact_judgement():
    rng = np.random.default_rng(11)
    model = truth(rng)
    run = draw(rng, model)
    close = {**run, "scalars": {"loss": {k: v * (1 + 5e-5) for k, v in run["scalars"]["loss"].items()}}}
    judgement = judge_calibrated([run, run, run], close, rtol=1e-4, margin=3.0)
    assert judgement.passed and judgement.passed_by_spread
    assert {n.verdict for n in judgement.numbers} == {EXACT}
    assert judgement.calibration.overall.oracle_worst.worst_ratio == 0.0
    far = {**run, "scalars": {"loss": {k: v * (1 + 5e-4) for k, v in run["scalars"]["loss"].items()}}}
    judgement = judge_calibrated([run, run, run], far, rtol=1e-4, margin=3.0)
    assert not judgement.passed and not judgement.passed_by_spread  # one number 5x rtol: outside, as before


def test_two_oracle_runs_keep_the_spread_rule_and_say_so():
    oracle, side = oracle_and_side(1, runs=2)
    judgement = judge_calibrated(oracle, side, rtol=1e-4, margin=3.0)
    assert judgement.calibration is None
    assert judgement.passed == judgement.passed_by_spread
    assert calibration.notes(judgement) == [
        "only 2 oracle run(s): the oracle's self-check needs 3 or more (--oracle-runs); judged by "
        "max(rtol, 3 x spread) alone"]
    assert "no self-check (2 oracle runs)" in _judgement_cells(Phase("training", judgement=judgement))[3]
    # two identical runs (a deterministic program): nothing to say
    assert calibration.notes(judge_calibrated([oracle[0], oracle[0]], side, rtol=1e-4)) == []
