"""How often the calibrated rule (verify/calibration.py) fails a side, with and without escalation
(verify/escalation.py), on synthetic harvests.

The trials behind calibration.py's docstring, docs/results/2026-11-28-verdict-stability.md,
docs/results/2026-11-28-escalation.md and docs/results/2026-11-28-stochastic-programs.md:
test_calibration.py's generators, a side drawn like the oracle (exchangeable: every FAIL is
false) or wrong (one variable x1.05, the loss shifted, an accuracy the oracle never reaches:
every PASS is false), judged against 3 oracle runs, and again (escalation.judge_again) with
ESCALATION_RUNS more runs drawn from the same model after the side when escalation.narrow_failure
calls the FAIL narrow.

`draw` (40 variables, 8 loss steps, 2 evaluation metrics; heavy-tailed or normal noise) for
heavy, normal, scaled, shifted; `dropout_draw` (a tiny BERT with unseeded dropout: one logged
loss, 120 variables of 2-16 elements, half of them optimizer slots whose norm moves most; every
run a random draw) for dropout, dropout_shifted (the loss +1%, ~5x its noise), dropout_scaled.
The `crossing` cases add an evaluation accuracy shaped like brightmart/albert_zh's run_classifier
in the test bed: a count ratio of 23 examples, 14/23 unless the run's eval loss lies above a
threshold (the logits crossed zero), then 9/23 -- the oracle and an exchangeable side cross with
the same probability; `flipped` is a side that always crosses against an oracle that never does.
The `two_valued` cases add batch-norm moving means shaped like tpu_efficientnet's in the test bed
(unseeded drop-connect): per block, ~1.5e-8 in a run where drop-connect dropped no sample in that
block and ~3.5e-3 where it did, in 33% and 56% of runs (two blocks); `two_valued` is exchangeable,
`two_valued_scaled` and `two_valued_shifted` wrong as dropout_scaled and dropout_shifted are.
The `predictions` cases add the outputs of google-research/bert run_classifier in the test bed (the
predicted probabilities of 16 test examples, and the evaluation written to a file): a run's
predictions all move together by its draw (TF 1.15 runs at 0.4727, 0.4058, 0.4335 for one example,
each example within 1e-4 of its run's level), so 3 runs that happen to lie close give narrow
calibrated bounds to all 36 numbers at once; and the step-1 loss barely moves (a start state whose
logits are near zero: relative spread 8.1e-5 in that run), so 3 runs may not show the randomness
at the first step. `predictions` is exchangeable, `predictions_scaled` and `predictions_shifted`
(the loss +1.7e-4, ~5x its noise) wrong.

    python -m tests.verify.calibration_trials [CASE[:FIRST-LAST] ...]   (e.g. dropout:100-199)
"""

from __future__ import annotations

import sys
from statistics import NormalDist

import numpy as np

from tests.verify.test_calibration import STEPS, draw, dropout_draw, dropout_truth, truth
from verify.calibration import ByTriples, judge_calibrated
from verify.escalation import ESCALATION_RUNS, judge_again, narrow_failure

CROSSING = 0.15  # how often a run's prediction crosses in the `crossing` case
CASES = {  # name: (seeds, generator, how the side differs, how often the oracle / the side cross)
    "heavy": (range(100, 400), "heavy", {}, None),
    "normal": (range(100, 200), "normal", {}, None),
    "scaled": (range(100, 400), "heavy", {"scale": ("layer_7/kernel", 1.05)}, None),
    "shifted": (range(100, 400), "heavy", {"loss_shift": 0.01}, None),
    "crossing": (range(100, 400), "normal", {}, (CROSSING, CROSSING)),
    "flipped": (range(100, 400), "normal", {}, (0.0, 1.0)),
    "dropout": (range(100, 300), "dropout", {}, None),
    "dropout_shifted": (range(100, 300), "dropout", {"loss_shift": 0.0069}, None),
    "dropout_scaled": (range(100, 300), "dropout", {"scale": ("layer_7/kernel", 1.05)}, None),
    "two_valued": (range(100, 300), "two_valued", {}, None),
    "two_valued_scaled": (range(100, 300), "two_valued", {"scale": ("layer_7/kernel", 1.05)}, None),
    "two_valued_shifted": (range(100, 300), "two_valued", {"loss_shift": 0.0069}, None),
    "predictions": (range(100, 300), "predictions", {}, None),
    "predictions_scaled": (range(100, 300), "predictions", {"scale": ("layer_7/kernel", 1.05)}, None),
    "predictions_shifted": (range(100, 300), "predictions", {"loss_shift": 1.7e-4}, None),
}
DROPS = (0.33, 0.56)
PREDICTION_LEVEL, PREDICTION_SPREAD = 0.43, 0.04  # a run's predicted probability of class 0, and its draw's sd
PREDICTIONS_LOSS_NOISE = 5e-5  # the step-1 loss's relative noise in the `predictions` cases  # how often drop-connect drops a sample in each block (tpu_efficientnet's blocks 2 and 4)


def with_two_valued(rng, run: dict, shape, dropped) -> dict:
    """`run` with one moving mean of 16 elements (`shape` x its level) per block: level 3.5e-3 in a block
    where the run dropped a sample (dropped[block]), else 1.5e-8; 1% noise (the run's other randomness)."""
    for block, drop in enumerate(dropped):
        values = (3.5e-3 if drop else 1.5e-8) * shape * (1 + 1e-2 * rng.normal(0, 1, 16))
        run["variables"][f"blocks_{block}/tpu_batch_normalization/moving_mean"] = {
            "shape": [16], "values": [float(v) for v in values], "l2": float(np.linalg.norm(values))}
    return run


def with_predictions(rng, run: dict) -> dict:
    """`run` with outputs shaped like bert run_classifier's: test_results.tsv, 16 examples' two class
    probabilities, every example at the run's level (PREDICTION_LEVEL + PREDICTION_SPREAD x normal) within
    1e-4; eval_results.txt: accuracy 10/16, the eval loss twice (1% noise) and the step count."""
    level = PREDICTION_LEVEL + PREDICTION_SPREAD * rng.normal()
    first = level + 1e-4 * rng.normal(0, 1, 16)
    loss = 0.67 * (1 + 1e-2 * rng.normal())
    run["outputs"] = {"eval_results.txt": [0.625, float(loss), 16.0, float(loss)],
                      "test_results.tsv": [float(v) for p in first for v in (p, 1.0 - p)]}
    return run


def with_accuracy(run: dict, crossing: float) -> dict:
    """`run` with evaluation.eval.eval_accuracy: 9/23 when its eval loss lies in the top `crossing` of
    its distribution (the generator's eval loss is 0.7 x (1 + 3e-3 x normal noise)), else 14/23."""
    loss = run["evaluation"]["eval"]["loss"][str(STEPS)]
    threshold = NormalDist().inv_cdf(1.0 - crossing) if 0.0 < crossing < 1.0 else (-np.inf if crossing else np.inf)
    crossed = (loss / 0.7 - 1.0) / 3e-3 > threshold
    run["evaluation"]["eval"]["eval_accuracy"] = {str(STEPS): float(np.float32(9 / 23 if crossed else 14 / 23))}
    return run


def trial(seed: int, generator: str, side: dict, crossing=None, extra: int = ESCALATION_RUNS):
    """(judged against the oracle's 3 runs, the escalated judgement or None): the 3 runs and the side are
    drawn first, the runs escalation adds after them, so the 3-run figures are the docstring's trials."""
    rng = np.random.default_rng(seed)
    if generator in ("dropout", "two_valued", "predictions"):
        model = dropout_truth(rng)
        shape = rng.uniform(0.8, 1.2, 16) if generator == "two_valued" else None  # a moving mean / its level

        def one(**differs):
            if generator == "predictions":
                return with_predictions(rng, dropout_draw(rng, model, loss_noise=PREDICTIONS_LOSS_NOISE, **differs))
            run = dropout_draw(rng, model, **differs)
            if generator == "two_valued":
                run = with_two_valued(rng, run, shape, [rng.random() < drop for drop in DROPS])
            return run
    else:
        model = truth(rng)

        def one(**differs):
            return draw(rng, model, heavy=generator == "heavy", **differs)

    def oracle_run():
        run = one()
        return with_accuracy(run, crossing[0]) if crossing else run

    oracle = [oracle_run() for _ in range(3)]
    ours = one(**side)
    if crossing:
        ours = with_accuracy(ours, crossing[1])
    three = judge_calibrated(oracle, ours, rtol=1e-4, margin=3.0)
    if three.passed or narrow_failure(three, oracle, ours) is None:
        return three, None
    more = [oracle_run() for _ in range(extra)]
    return three, judge_again(three, oracle, oracle + more, ours)


def main(names: list[str]) -> None:
    for spec in names or list(CASES):
        name, _, span = spec.partition(":")
        seeds, generator, side, crossing = CASES[name]
        if span:
            first, last = (int(part) for part in span.split("-"))
            seeds = range(first, last + 1)
        failed = escalated_failed = escalated = spread_failed = 0
        triples = []  # (seed, triples failed) of the sides judged by the majority of triples
        for seed in seeds:
            three, escalated_judgement = trial(seed, generator, dict(side), crossing)
            failed += not three.passed
            escalated += escalated_judgement is not None
            escalated_failed += not (escalated_judgement or three).passed
            spread_failed += not three.passed_by_spread
            if isinstance(getattr(escalated_judgement, "calibration", None), ByTriples):
                triples.append(f"{seed}:{escalated_judgement.calibration.failed_triples}")
        n = len(seeds)
        print(f"{name} (seeds {seeds.start}-{seeds.stop - 1}): spread rule FAIL {spread_failed}/{n}; calibrated, 3 "
              f"oracle runs: FAIL {failed}/{n}; with escalation ({3 + ESCALATION_RUNS} runs): FAIL "
              f"{escalated_failed}/{n} ({escalated} escalated"
              + (f"; judged by triples, seed:triples failed of 20: {' '.join(triples)}" if triples else "") + ")",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
