"""How often the calibrated rule (verify/calibration.py) fails a side, with and without escalation
(verify/escalation.py), on synthetic harvests.

The trials behind calibration.py's docstring, docs/results/2026-11-28-verdict-stability.md and
docs/results/2026-11-28-escalation.md: test_calibration.py's generator (40 variables, 8 loss
steps, 2 evaluation metrics), a side drawn like the oracle (exchangeable: every FAIL is false) or
wrong (one variable x1.05, the loss shifted by 0.01, an accuracy the oracle never reaches: every
PASS is false), judged against 3 oracle runs, and again against 3 + ESCALATION_RUNS runs drawn
from the same model after the side when escalation.narrow_failure calls the FAIL narrow.

The `crossing` cases add an evaluation accuracy shaped like brightmart/albert_zh's run_classifier
in the test bed: a count ratio of 23 examples, 14/23 unless the run's eval loss lies above a
threshold (the logits crossed zero), then 9/23 -- the oracle and an exchangeable side cross with
the same probability; `flipped` is a side that always crosses against an oracle that never does.

    python -m tests.verify.calibration_trials [heavy|normal|scaled|shifted|crossing|flipped ...]
"""

from __future__ import annotations

import sys
from statistics import NormalDist

import numpy as np

from tests.verify.test_calibration import STEPS, draw, truth
from verify.calibration import judge_calibrated
from verify.escalation import ESCALATION_RUNS, narrow_failure

CROSSING = 0.15  # how often a run's prediction crosses in the `crossing` case
CASES = {  # name: (seeds, heavy-tailed noise, how the side differs, how often the oracle / the side cross)
    "heavy": (range(100, 400), True, {}, None),
    "normal": (range(100, 200), False, {}, None),
    "scaled": (range(100, 400), True, {"scale": ("layer_7/kernel", 1.05)}, None),
    "shifted": (range(100, 400), True, {"loss_shift": 0.01}, None),
    "crossing": (range(100, 400), False, {}, (CROSSING, CROSSING)),
    "flipped": (range(100, 400), False, {}, (0.0, 1.0)),
}


def with_accuracy(run: dict, crossing: float) -> dict:
    """`run` with evaluation.eval.eval_accuracy: 9/23 when its eval loss lies in the top `crossing` of
    its distribution (the generator's eval loss is 0.7 x (1 + 3e-3 x normal noise)), else 14/23."""
    loss = run["evaluation"]["eval"]["loss"][str(STEPS)]
    threshold = NormalDist().inv_cdf(1.0 - crossing) if 0.0 < crossing < 1.0 else (-np.inf if crossing else np.inf)
    crossed = (loss / 0.7 - 1.0) / 3e-3 > threshold
    run["evaluation"]["eval"]["eval_accuracy"] = {str(STEPS): float(np.float32(9 / 23 if crossed else 14 / 23))}
    return run


def trial(seed: int, heavy: bool, side: dict, crossing=None, extra: int = ESCALATION_RUNS):
    """(judged against the oracle's 3 runs, the escalated judgement or None): the 3 runs and the side are
    drawn first, the runs escalation adds after them, so the 3-run figures are the docstring's trials."""
    rng = np.random.default_rng(seed)
    model = truth(rng)

    def oracle_run():
        run = draw(rng, model, heavy=heavy)
        return with_accuracy(run, crossing[0]) if crossing else run

    oracle = [oracle_run() for _ in range(3)]
    ours = draw(rng, model, heavy=heavy, **side)
    if crossing:
        ours = with_accuracy(ours, crossing[1])
    three = judge_calibrated(oracle, ours, rtol=1e-4, margin=3.0)
    if three.passed or narrow_failure(three, oracle, ours) is None:
        return three, None
    more = [oracle_run() for _ in range(extra)]
    return three, judge_calibrated(oracle + more, ours, rtol=1e-4, margin=3.0)


def main(names: list[str]) -> None:
    for name in names or list(CASES):
        seeds, heavy, side, crossing = CASES[name]
        failed = escalated_failed = escalated = spread_failed = 0
        for seed in seeds:
            three, escalated_judgement = trial(seed, heavy, dict(side), crossing)
            failed += not three.passed
            escalated += escalated_judgement is not None
            escalated_failed += not (escalated_judgement or three).passed
            spread_failed += not three.passed_by_spread
        n = len(seeds)
        print(f"{name} (seeds {seeds.start}-{seeds.stop - 1}): spread rule FAIL {spread_failed}/{n}; calibrated, 3 "
              f"oracle runs: FAIL {failed}/{n}; with escalation to {3 + ESCALATION_RUNS} runs: FAIL "
              f"{escalated_failed}/{n} ({escalated} escalated)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
