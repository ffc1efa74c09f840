"""Count ratios (an accuracy: examples right / examples) judged in steps of their resolution.

An accuracy moves in steps of 1/count: one example's prediction flipping is its smallest change.
When the oracle's runs repeat such a number exactly while the rest of its series moves (the same
evaluation's losses differ between runs), its spread of 0 only says no example flipped in three
runs, not that none can: google-research/bert's run_pretraining (test bed, 20 steps) evaluates
`masked_lm_accuracy` 0.1125 = 18/160 in all three TF 1.15 runs while their eval losses differ by
2.8e-3, and a side at 0.11875 = 19/160 (one masked token) was 5.6% away against an allowance of
3 x that loss spread. A number is a count ratio on evidence, not because it lies in [0, 1]: a
loss of 0.3, a weight, a learning rate or a hyperparameter 0.2 that a deterministic oracle
repeats counts nothing (and float32 rounding puts most numbers above 0.3 within reach of some
k/n, n <= 4096: the lattice alone is no evidence). So a count ratio is
  * in a section of metrics (scalars, evaluation, outputs), named as a count ratio (a part of
    its name says accuracy, acc, precision or recall: `eval_accuracy`, `keras/epoch/val_acc`,
    `top_1_accuracy`), or a copy of one: an unnamed number (a line of eval_results.txt, a
    Keras evaluate() result, a best_objective.txt) whose oracle and side values are both those
    of a named count ratio of the same judgement, within float32 rounding;
  * both values on a lattice k/n: n the least common multiple of the denominators the two
    values have as fractions (each found within float32 rounding, n at most MAX_DENOMINATOR);
and, where every oracle run repeats it exactly in a series whose spread is not zero, it is
allowed one step 1/n of that lattice, no more. n is inferred from the values: the example
count is a multiple of it, so one step is at least one example flipped; values sharing factors
with the count make the lattice coarser than the count (0.5 and 0.5625 are one step of 1/16,
ten examples of 160), hence n >= MIN_DENOMINATOR: no change above 1/20 is ever forgiven. A value
off the lattice (any float a wrong side computes) lands one step away, within float32 rounding,
by chance: for 0.1125, ~1e-4 of the values within 5% of it (~100 candidate steps 1/n, each a
window ~5e-8 wide). Pure functions.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from fractions import Fraction

from verify.compare import DEFAULT_FLOOR, flatten_numbers, relative_difference
from verify.judge import OUTSIDE, Judged, Judgement

SECTIONS = ("scalars", "evaluation", "eval", "outputs")
MAX_DENOMINATOR = 4096  # float32 tells k/n apart up to n ~ 4000 (neighbours 1/n^2 apart, ulp ~6e-8)
MIN_DENOMINATOR = 20
ON_LATTICE = 2.0 ** -22  # relative: a float32 count ratio, rounded once or printed shortest
# A part of a metric's name that says it counts (right / all, true positives / predicted or actual positives).
COUNT_RATIO_NAME = re.compile(r"accuracy|precision|recall|(?<![a-z])acc(?![a-z])")


def denominator(value: float) -> int | None:
    """n of the fraction k/n (n <= MAX_DENOMINATOR) that `value` is within float32 rounding of; None if none."""
    if not 0.0 <= value <= 1.0:
        return None
    fraction = Fraction(value).limit_denominator(MAX_DENOMINATOR)
    return fraction.denominator if abs(float(fraction) - value) <= ON_LATTICE * value + 1e-12 else None


def step(oracle: float, ours: float) -> int | None:
    """n when `ours` is one step 1/n from `oracle` on their common lattice (see module docstring), else None."""
    denominators = (denominator(oracle), denominator(ours))
    if None in denominators:
        return None
    n = math.lcm(*denominators)
    if not MIN_DENOMINATOR <= n <= MAX_DENOMINATOR:
        return None
    return n if abs(abs(ours - oracle) - 1.0 / n) <= _rounding(oracle, ours) else None


def _rounding(oracle: float, ours: float) -> float:
    return ON_LATTICE * (abs(oracle) + abs(ours)) + 1e-12


def named_count_ratio(where: str) -> bool:
    """A number of a metrics section whose name says it is a count ratio (an accuracy, precision, recall)."""
    section, _, name = where.partition(".")
    return section in SECTIONS and COUNT_RATIO_NAME.search(name.lower()) is not None


def on_lattice(oracle: float, ours: float) -> bool:
    """Both values k/n within float32 rounding, their common n at most MAX_DENOMINATOR."""
    denominators = (denominator(oracle), denominator(ours))
    return None not in denominators and math.lcm(*denominators) <= MAX_DENOMINATOR


def count_ratios(judgement: Judgement) -> frozenset[str]:
    """Where the judgement's count ratios are, on evidence (module docstring): named ones on a lattice, and
    unnamed numbers of the metrics sections whose oracle and side values are those of a named one."""
    named = [n for n in judgement.numbers if named_count_ratio(n.where) and on_lattice(n.oracle, n.ours)]
    pairs = [(n.oracle, n.ours) for n in named if n.ours != n.oracle]
    copies = [n for n in judgement.numbers
              if pairs and n.where.split(".", 1)[0] in SECTIONS and not named_count_ratio(n.where)
              and any(_same(n.oracle, oracle) and _same(n.ours, ours) for oracle, ours in pairs)
              and on_lattice(n.oracle, n.ours)]
    return frozenset(n.where for n in (*named, *copies))


def _same(one: float, other: float) -> bool:
    return abs(one - other) <= _rounding(one, other)


def _candidate(number: Judged) -> bool:
    return number.verdict == OUTSIDE and number.spread > 0.0 and number.where.split(".", 1)[0] in SECTIONS


def allow_one_step(judgement: Judgement, oracle_runs: list[dict]) -> Judgement:
    """The judgement with each count ratio one step from an oracle that repeats it allowed that step."""
    candidates = [number for number in judgement.numbers if _candidate(number)]
    if candidates:
        ratios = count_ratios(judgement)
        candidates = [number for number in candidates if number.where in ratios]
    if not candidates:
        return judgement
    flat = [flatten_numbers(run) for run in oracle_runs]
    allowed: dict[str, float] = {}
    for number in candidates:
        if any(run.get(number.where) != number.oracle for run in flat):
            continue  # the oracle's runs differ there: its spread has measured it
        n = step(number.oracle, number.ours)
        if n is not None:
            one = 1.0 / n + _rounding(number.oracle, number.ours)
            allowed[number.where] = max(number.allowed, relative_difference(number.oracle, number.oracle + one,
                                                                            DEFAULT_FLOOR))
    if not allowed:
        return judgement
    numbers = tuple(replace(n, allowed=allowed[n.where]) if n.where in allowed else n for n in judgement.numbers)
    return replace(judgement, numbers=numbers)


def one_step_numbers(judgement: Judgement) -> list[Judged]:
    """The numbers allow_one_step let pass: allowed beyond max(rtol, margin x spread)."""
    stepped = [n for n in judgement.numbers if n.verdict != OUTSIDE and n.difference > max(
        judgement.rtol, judgement.margin * n.spread) and step(n.oracle, n.ours) is not None]
    ratios = count_ratios(judgement) if stepped else frozenset()
    return [n for n in stepped if n.where in ratios]


def note(judgement: Judgement) -> str | None:
    """The training phase's note naming the count ratios allowed one step."""
    numbers = one_step_numbers(judgement)
    if not numbers:
        return None
    return (f"{len(numbers)} count ratio(s) one step of their resolution from a value all {judgement.oracle_runs} "
            "oracle runs repeat (one example flipped; the rest of their series varies between runs), allowed that "
            "step: " + "; ".join(f"{n.where} {n.ours:.6g} against {n.oracle:.6g} (a step of 1/{step(n.oracle, n.ours)})"
                                 for n in numbers[:5]))
