"""Judge one side's numbers against the oracle's, with the oracle's own run-to-run spread.

Many real TF1 programs are not deterministic (unseeded shuffles, dropout, TF1's racy global-step
reads): two runs of the same program in the same oracle differ. A side can only be asked to be as
close to the oracle as the oracle is to itself. So the oracle runs twice or more from the same
start state; for every compared number:

  difference  = relative difference between the side and oracle run 1 (verify/compare.py:
                ``|ours - oracle| / max(|oracle|, floor, scale of the tensor it belongs to)``);
  spread      = the largest relative difference between any two oracle runs,
                widened to its *envelope*: the largest spread of the same series so far (a loss
                series up to this step, a variable's elements, one evaluation), because two
                samples of a noisy number underestimate its spread at any single point;
  allowed     = max(rtol, margin * spread).

and the number is reported as ``exact`` (the oracle repeats itself there: held to rtol),
``within spread`` (the oracle does not repeat itself: held to margin x its spread) or
``outside``. With 3 or more oracle runs the training phase's verdict is not "no number outside"
but the oracle's self-check (verify/calibration.py): the side may miss as often and by as much as
a held-out oracle run misses against the others. Pure functions of harvested runs; running
anything is verify/pipeline.py's business.
"""

from __future__ import annotations

from dataclasses import dataclass

from verify.compare import compare

EXACT, WITHIN_SPREAD, OUTSIDE = "exact", "within spread", "outside"
DEFAULT_MARGIN = 3.0


@dataclass(frozen=True)
class Judged:
    """One compared number."""

    where: str
    oracle: float
    ours: float
    difference: float
    spread: float
    allowed: float

    @property
    def verdict(self) -> str:
        if not self.difference <= self.allowed:
            return OUTSIDE
        return EXACT if self.spread == 0.0 else WITHIN_SPREAD


@dataclass(frozen=True)
class Judgement:
    """Every compared number of one side in one phase, and what did not line up."""

    numbers: tuple[Judged, ...]
    missing: tuple[str, ...]  # the oracle wrote it, the side did not
    unexpected: tuple[str, ...]  # the side wrote it, the oracle did not
    mismatched: tuple[str, ...]  # non-numeric leaves that differ (the final checkpoint's name)
    rtol: float
    margin: float
    oracle_runs: int
    # verify/calibration.py's Calibration (the oracle against itself), with >= 3 oracle runs:
    # then it, not the count of numbers outside, decides the verdict.
    calibration: object | None = None

    @property
    def outside(self) -> list[Judged]:
        return [number for number in self.numbers if number.verdict == OUTSIDE]

    @property
    def passed_by_spread(self) -> bool:
        """The spread rule alone: every number within max(rtol, margin x spread)."""
        return bool(self.numbers) and not (self.outside or self.missing or self.unexpected or self.mismatched)

    @property
    def passed(self) -> bool:
        """The spread rule; with a calibration, also a side that misses only as the oracle misses against itself."""
        if self.passed_by_spread or self.calibration is None:
            return self.passed_by_spread
        return (bool(self.numbers) and not (self.missing or self.unexpected or self.mismatched)
                and self.calibration.passed)

    def sections(self) -> dict[str, "SectionSummary"]:
        """Per section (scalars, evaluation, variables, outputs...), for the table."""
        summaries: dict[str, SectionSummary] = {}
        for number in self.numbers:
            section = number.where.split(".", 1)[0]
            summary = summaries.setdefault(section, SectionSummary(section))
            summary.add(number)
        for where in self.missing:
            summaries.setdefault(where.split(".", 1)[0], SectionSummary(where.split(".", 1)[0])).missing += 1
        for where in self.unexpected:
            summaries.setdefault(where.split(".", 1)[0],
                                 SectionSummary(where.split(".", 1)[0])).unexpected += 1
        return summaries


@dataclass
class SectionSummary:
    section: str
    compared: int = 0
    exact: int = 0
    within_spread: int = 0
    outside: int = 0
    missing: int = 0
    unexpected: int = 0
    max_difference: float = 0.0
    max_difference_at: str = ""
    max_spread: float = 0.0

    def add(self, number: Judged) -> None:
        self.compared += 1
        verdict = number.verdict
        self.exact += verdict == EXACT
        self.within_spread += verdict == WITHIN_SPREAD
        self.outside += verdict == OUTSIDE
        if number.difference > self.max_difference or not self.max_difference_at:
            self.max_difference, self.max_difference_at = number.difference, number.where
        self.max_spread = max(self.max_spread, number.spread)

    @property
    def passed(self) -> bool:
        return not (self.outside or self.missing or self.unexpected)


def series_of(where: str) -> str:
    """The series a number belongs to, over which its spread is widened (see module docstring).

    scalars.<tag>.<step>                 -> scalars.<tag>         (envelope over earlier steps)
    evaluation.<folder>.<tag>.<step>     -> evaluation.<folder>   (all metrics of all evaluations)
    variables.<name>.values.<i> / .l2    -> variables.<name>
    variables.<name>.shape.<i>           -> variables.<name>
    outputs.<file>.<i>                   -> outputs.<file>
    anything else                        -> its section
    """
    parts = where.split(".")
    if parts[0] == "variables":
        # variable names may hold dots; the element part is ".values.<i>", ".shape.<i>" or ".l2"
        head = where[len("variables."):]
        if head.endswith(".l2"):
            return "variables." + head[: -len(".l2")]
        for part in (".values.", ".shape."):
            if part in head:
                return "variables." + head.rsplit(part, 1)[0]
        return where
    if parts[0] == "outputs":  # file names hold dots: everything but the element index
        return where.rsplit(".", 1)[0]
    if parts[0] in ("scalars", "evaluation", "eval", "predictions"):
        return ".".join(parts[:2])
    return parts[0]


def _step_of(where: str) -> int | None:
    if where.startswith("scalars."):
        last = where.rsplit(".", 1)[-1]
        return int(last) if last.lstrip("-").isdigit() else None
    return None


def oracle_spread(reference: dict, others: list[dict]) -> dict[str, float]:
    """{where: spread}: the largest difference between any two oracle runs, widened to each series' envelope.

    Every pair of runs counts (with three runs, the range of three samples, not just their
    distances to run 1); each difference is relative to the first run of its pair.
    """
    raw: dict[str, float] = {}
    runs = [reference, *others]
    for first_index, first in enumerate(runs):
        for second in runs[first_index + 1:]:
            for pair in compare(first, second).pairs:
                raw[pair.where] = max(raw.get(pair.where, 0.0), pair.relative)
    envelope: dict[str, float] = {}
    series_max: dict[str, float] = {}
    # scalar series: running maximum over steps; every other series: its maximum.
    ordered = sorted(raw, key=lambda where: (series_of(where), _step_of(where) or 0, where))
    for where in ordered:
        series = series_of(where)
        if _step_of(where) is not None:
            series_max[series] = max(series_max.get(series, 0.0), raw[where])
            envelope[where] = series_max[series]
    whole: dict[str, float] = {}
    for where, value in raw.items():
        if _step_of(where) is None:
            whole[series_of(where)] = max(whole.get(series_of(where), 0.0), value)
    for where in raw:
        if where not in envelope:
            envelope[where] = whole[series_of(where)]
    return envelope


def judge(oracle_runs: list[dict], ours: dict, *, rtol: float, margin: float = DEFAULT_MARGIN) -> Judgement:
    """Hold `ours` to oracle run 1 within max(rtol, margin * spread of the oracle runs)."""
    reference = oracle_runs[0]
    spread = oracle_spread(reference, oracle_runs[1:]) if len(oracle_runs) > 1 else {}
    comparison = compare(reference, ours)
    numbers = []
    for pair in comparison.pairs:
        s = spread.get(pair.where, 0.0)
        numbers.append(Judged(pair.where, pair.golden, pair.ours, pair.relative, s, max(rtol, margin * s)))
    return Judgement(numbers=tuple(numbers), missing=comparison.missing, unexpected=comparison.unexpected,
                     mismatched=comparison.mismatched, rtol=rtol, margin=margin, oracle_runs=len(oracle_runs))


def first_divergence(judgement: Judgement) -> dict[str, int]:
    """{scalar tag: first step outside its allowance}: where training starts to differ."""
    first: dict[str, int] = {}
    for number in judgement.outside:
        step = _step_of(number.where)
        if step is not None:
            tag = series_of(number.where)[len("scalars."):]
            first[tag] = min(step, first.get(tag, step))
    return first


def worst_variables(judgement: Judgement, count: int = 5) -> list[tuple[str, float, float]]:
    """[(variable, difference, allowed)] of the variables furthest beyond (or closest to) their allowance.

    Per variable, its element with the largest difference / allowed ratio; variables are ranked by
    that ratio, so one outside its allowance always comes before any inside.
    """
    per_variable: dict[str, tuple[float, float]] = {}
    for number in judgement.numbers:
        if number.where.startswith("variables."):
            name = series_of(number.where)[len("variables."):]
            difference, allowed = per_variable.get(name, (0.0, number.allowed))
            if number.difference / number.allowed >= difference / allowed:
                per_variable[name] = (number.difference, number.allowed)
    ranked = sorted(per_variable.items(), key=lambda item: -item[1][0] / item[1][1])
    return [(name, difference, allowed) for name, (difference, allowed) in ranked[:count]]
