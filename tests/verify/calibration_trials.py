"""How often the calibrated rule (verify/calibration.py) fails a side, on synthetic harvests.

The trials behind calibration.py's docstring and docs/results/2026-11-28-verdict-stability.md:
test_calibration.py's generator (40 variables, 8 loss steps, 2 evaluation metrics), a side drawn
like the oracle (exchangeable: every FAIL is false) or wrong (one variable x1.05, the loss
shifted by 0.01), judged against 3 oracle runs, and with escalation (two more runs drawn from
the same model where 3 fail narrowly: escalation_wanted below, a policy measured here, not in
verify yet).

    python -m tests.verify.calibration_trials [heavy|normal|scaled|shifted ...]
"""

from __future__ import annotations

import sys

import numpy as np

from tests.verify.test_calibration import draw, truth
from verify.calibration import judge_calibrated

CASES = {  # name: (seeds, heavy-tailed noise, how the side differs)
    "heavy": (range(100, 400), True, {}),
    "normal": (range(100, 200), False, {}),
    "scaled": (range(100, 400), True, {"scale": ("layer_7/kernel", 1.05)}),
    "shifted": (range(100, 400), True, {"loss_shift": 0.01}),
}


NARROW = 2.0  # a failing section within this factor of both its bounds


def escalation_wanted(judgement) -> bool:
    """Whether 2 more oracle runs could change a FAIL: the calibrated rule alone failed it, narrowly."""
    calibration = judgement.calibration
    if judgement.passed or calibration is None or judgement.missing or judgement.unexpected or judgement.mismatched:
        return False
    return all(s.passed or (s.side_outside <= NARROW * s.allowed_outside
                            and s.side_worst.worst_ratio <= NARROW * s.allowed_ratio) for s in calibration.sections)


def trial(seed: int, heavy: bool, side: dict, extra: int = 2):
    """(judged against the oracle's 3 runs, with escalation): the 3 runs and the side are drawn first, the
    2 runs escalation adds after them, so the 3-run figures are the docstring's trials."""
    rng = np.random.default_rng(seed)
    model = truth(rng)
    oracle = [draw(rng, model, heavy=heavy) for _ in range(3)]
    ours = draw(rng, model, heavy=heavy, **side)
    three = judge_calibrated(oracle, ours, rtol=1e-4, margin=3.0)
    if not escalation_wanted(three):
        return three, three
    more = [draw(rng, model, heavy=heavy) for _ in range(extra)]
    return three, judge_calibrated(oracle + more, ours, rtol=1e-4, margin=3.0)


def main(names: list[str]) -> None:
    for name in names or list(CASES):
        seeds, heavy, side = CASES[name]
        failed = escalated_failed = escalated = spread_failed = 0
        for seed in seeds:
            three, final = trial(seed, heavy, dict(side))
            failed += not three.passed
            escalated += final is not three
            escalated_failed += not final.passed
            spread_failed += not three.passed_by_spread
        n = len(seeds)
        print(f"{name} (seeds {seeds.start}-{seeds.stop - 1}): spread rule FAIL {spread_failed}/{n}; calibrated, 3 "
              f"oracle runs: FAIL {failed}/{n}; with escalation to 5 runs: FAIL {escalated_failed}/{n} "
              f"({escalated} escalated)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
