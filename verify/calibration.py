"""The oracle against itself: would one more oracle run pass the training phase's spread rule?

With N oracle runs the spread rule (verify/judge.py) holds every number to max(rtol, margin x
the oracle's spread). Over thousands of numbers some land outside by chance even when the side
behaves exactly like one more oracle run: three samples underestimate a noisy number's spread
(heavy-tailed optimizer slots, dropout, unseeded shuffles). So, with N >= 3 runs, verify first
asks the oracle to pass its own rule:

  for each oracle run k (held out):
      reference = the first remaining run, spread = the N-1 remaining runs (judge.judge);
      oracle  = run k judged against the remaining runs;
      side    = the side judged against the same remaining runs (same reference, same spread,
                the same number of runs in it);

and compares how often and how far each misses. If the side behaves like one more oracle run
(exchangeable with them), it misses about as often and by about as much as a held-out oracle
run does; a real difference (a variable off by 5%, a shifted loss series) misses in every subset
and by far more.

The verdict. A side within max(rtol, margin x spread) of all N runs passes, as without the
self-check (which only ever forgives). A side with numbers outside passes when all hold:
  * nothing missing, unexpected or mismatched;
  * in every section (scalars, evaluation, variables, outputs), against every subset of N-1 runs:
    the side's count of numbers outside <= COUNT_FACTOR x M + COUNT_SLACK, M = the most numbers of
    that section any held-out oracle run had outside;
  * and its worst difference/allowed ratio <= max(1, margin x R), R = the held-out oracle runs'
    worst ratio in that section.
Per section, so that a loss series is held to what the oracle's losses do, not to its noisiest
optimizer slot. Why slack: with equal distributions a side beats the largest of N held-out figures
1/(N+1) of the time or more (its own figure is a maximum over N subsets). 2M+2 covers counts of
rare misses (Poisson counts, simulated for means 0.3 to 100: the largest of 3 counts exceeds 2x
the largest of 3 others + 2 at most 1.5% of the time). Measured on synthetic harvests
(tests/verify/test_calibration.py's generator, 40 variables, 3 oracle runs): a side drawn like
the oracle with heavy-tailed noise (Student t, 3 degrees of freedom; seeds 100-399) fails the
spread rule 34% of the time and this rule 9%; with normal noise (seeds 100-199) 2% and 0%. One
variable scaled by 1.05 is caught by both in every trial where 5% is beyond 3x its spread (166
of 300; the others are too noisy for any rule); a loss series shifted by 0.01 (5-10x its noise)
is caught 92% of the time (spread rule 93%). The price of per-section bounds: small sections
(a 2-number evaluation, one loss series) fail exchangeable sides more often than one bound over
all numbers would (3% in the same trials) -- but over all numbers a loss error hides behind the
noisiest optimizer slot (caught 81%). A deterministic oracle (every spread zero) gives R = 0, so
the rule is the spread rule exactly.
Every judgement here (the side's and each held-out one) allows a count ratio (an accuracy) that
every oracle run repeats in a varying series one step of its resolution (verify/discrete.py).
Pure functions of harvested runs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from verify import discrete
from verify.judge import DEFAULT_MARGIN, OUTSIDE, Judgement, judge

MIN_RUNS = 3
COUNT_FACTOR, COUNT_SLACK = 2, 2


@dataclass(frozen=True)
class HeldOut:
    """One run (an oracle run, or the side) judged against the oracle runs but one, in one section."""

    left_out: int  # 1-based oracle run left out of the spread
    reference: int  # 1-based oracle run differences are measured from
    compared: int
    outside: int
    worst_ratio: float  # max difference / allowed
    worst_at: str


def held_out(numbers, left_out: int, reference: int) -> HeldOut:
    numbers = list(numbers)
    worst = max(numbers, key=lambda n: n.difference / n.allowed, default=None)
    return HeldOut(left_out, reference, len(numbers), sum(n.verdict == OUTSIDE for n in numbers),
                   worst.difference / worst.allowed if worst else 0.0, worst.where if worst else "")


@dataclass(frozen=True)
class SectionCalibration:
    """One section's (scalars, evaluation, variables, outputs) self-check: held-out oracle runs and the side."""

    section: str
    oracle: tuple[HeldOut, ...]  # held-out oracle run k against the others, k = 1..N
    side: tuple[HeldOut, ...]  # the side against the same others
    margin: float

    @property
    def compared(self) -> int:
        return max(h.compared for h in self.side)

    @property
    def oracle_outside(self) -> int:
        return max(h.outside for h in self.oracle)

    @property
    def oracle_worst(self) -> HeldOut:
        return max(self.oracle, key=lambda h: h.worst_ratio)

    @property
    def side_outside(self) -> int:
        return max(h.outside for h in self.side)

    @property
    def side_worst(self) -> HeldOut:
        return max(self.side, key=lambda h: h.worst_ratio)

    @property
    def allowed_outside(self) -> int:
        return COUNT_FACTOR * self.oracle_outside + COUNT_SLACK

    @property
    def allowed_ratio(self) -> float:
        return max(1.0, self.margin * self.oracle_worst.worst_ratio)

    @property
    def passed(self) -> bool:
        return self.side_outside <= self.allowed_outside and self.side_worst.worst_ratio <= self.allowed_ratio

    def line(self) -> str:
        oracle, side = self.oracle_worst, self.side_worst
        return (f"{self.section}: oracle against itself {self.oracle_outside} of {self.compared} outside, worst "
                f"ratio {oracle.worst_ratio:.2g} (run {oracle.left_out} at {oracle.worst_at or '-'}); this side "
                f"{self.side_outside} of {self.compared}, worst ratio {side.worst_ratio:.2g} "
                f"(at {side.worst_at or '-'}); allowed {self.allowed_outside} and {self.allowed_ratio:.2g}: "
                f"{'PASS' if self.passed else 'FAIL'}")

    def as_json(self) -> dict:
        return {"section": self.section, "passed": self.passed, "compared": self.compared,
                "oracle_outside": self.oracle_outside, "oracle_ratio": self.oracle_worst.worst_ratio,
                "oracle_ratio_at": self.oracle_worst.worst_at, "side_outside": self.side_outside,
                "side_ratio": self.side_worst.worst_ratio, "side_ratio_at": self.side_worst.worst_at,
                "allowed_outside": self.allowed_outside, "allowed_ratio": self.allowed_ratio,
                "oracle_held_out": [vars(h) for h in self.oracle], "side_held_out": [vars(h) for h in self.side]}


@dataclass(frozen=True)
class Calibration:
    """The self-check of one side's training phase: per section, and over all numbers (for the table)."""

    sections: tuple[SectionCalibration, ...]
    overall: SectionCalibration  # every number at once: the figures the table shows
    margin: float

    @property
    def passed(self) -> bool:
        return all(section.passed for section in self.sections)

    @property
    def failed_sections(self) -> list[str]:
        return [section.section for section in self.sections if not section.passed]

    def lines(self) -> list[str]:
        """The self-check as the notes show it."""
        overall, runs = self.overall, len(self.overall.oracle)
        head = (f"oracle against itself (each of {runs} runs held out, judged against the other {runs - 1}): "
                f"{overall.oracle_outside} of {overall.compared} outside, worst ratio "
                f"{overall.oracle_worst.worst_ratio:.2g}; this side against the same runs: {overall.side_outside} of "
                f"{overall.compared} outside, worst ratio {overall.side_worst.worst_ratio:.2g}; calibrated verdict "
                + ("PASS" if self.passed else "FAIL (" + ", ".join(self.failed_sections) + ")"))
        return [head] + [f"self-check {section.line()}" for section in self.sections]

    def as_json(self) -> dict:
        return {"passed": self.passed, "margin": self.margin, "count_factor": COUNT_FACTOR,
                "count_slack": COUNT_SLACK, "oracle_outside": self.overall.oracle_outside,
                "oracle_ratio": self.overall.oracle_worst.worst_ratio, "side_outside": self.overall.side_outside,
                "side_ratio": self.overall.side_worst.worst_ratio,
                "sections": [section.as_json() for section in self.sections]}


def _section(where: str) -> str:
    return where.split(".", 1)[0]


def calibrate(oracle_runs: list[dict], ours: dict, *, rtol: float, margin: float = DEFAULT_MARGIN) -> Calibration | None:
    """Each oracle run and the side against the oracle runs but one; None with fewer than MIN_RUNS runs."""
    if len(oracle_runs) < MIN_RUNS:
        return None
    oracle: dict[str, list[HeldOut]] = {}
    side: dict[str, list[HeldOut]] = {}
    everything: tuple[list[HeldOut], list[HeldOut]] = ([], [])
    for k in range(len(oracle_runs)):
        rest = oracle_runs[:k] + oracle_runs[k + 1:]
        reference = 1 if k else 2
        for judged, into, whole in ((_judge(rest, oracle_runs[k], rtol, margin), oracle, everything[0]),
                                    (_judge(rest, ours, rtol, margin), side, everything[1])):
            whole.append(held_out(judged.numbers, k + 1, reference))
            for name in sorted({_section(n.where) for n in judged.numbers}):
                into.setdefault(name, []).append(
                    held_out((n for n in judged.numbers if _section(n.where) == name), k + 1, reference))
    sections = []
    for name in sorted(side):
        # a section the side has and a held-out oracle run lacks counts as nothing outside for that run
        runs = {h.left_out: h for h in oracle.get(name, [])}
        filled = tuple(runs.get(h.left_out, HeldOut(h.left_out, h.reference, 0, 0, 0.0, "")) for h in side[name])
        sections.append(SectionCalibration(name, filled, tuple(side[name]), margin))
    overall = SectionCalibration("all", tuple(everything[0]), tuple(everything[1]), margin)
    return Calibration(tuple(sections), overall, margin)


def _judge(oracle_runs: list[dict], ours: dict, rtol: float, margin: float) -> Judgement:
    """judge.judge, with count ratios allowed one step of their resolution (verify/discrete.py)."""
    return discrete.allow_one_step(judge(oracle_runs, ours, rtol=rtol, margin=margin), oracle_runs)


def uncalibrated_note(judgement: Judgement) -> str | None:
    """Why a noisy oracle's training phase is judged by the spread rule alone (fewer than 3 runs)."""
    if judgement.oracle_runs >= MIN_RUNS or not any(n.spread for n in judgement.numbers):
        return None
    return (f"only {judgement.oracle_runs} oracle run(s): the oracle's self-check needs {MIN_RUNS} or more "
            f"(--oracle-runs); judged by max(rtol, {judgement.margin:g} x spread) alone")


def judge_calibrated(oracle_runs: list[dict], ours: dict, *, rtol: float, margin: float = DEFAULT_MARGIN) -> Judgement:
    """judge.judge, with the oracle's self-check deciding the verdict when there are >= MIN_RUNS runs."""
    judgement = _judge(oracle_runs, ours, rtol, margin)
    calibration = calibrate(oracle_runs, ours, rtol=rtol, margin=margin)
    if calibration is None:
        return judgement
    return replace(judgement, calibration=calibration)


@dataclass(frozen=True)
class ByTriples(Calibration):
    """The self-check against every 3 of N > 3 oracle runs: the verdict of a side judged again after
    escalation on a random oracle (verify/escalation.py). The figures (sections, overall) are the
    self-check against all N runs, for the table; the verdict is the share of triples the side fails,
    held to the larger of a majority and the worst share a held-out oracle run fails against the
    triples of the other N-1 (the oracle against itself, one level up)."""

    triples: int = 0
    failed_triples: int = 0
    section_failures: tuple[tuple[str, int], ...] = ()  # (section, triples it failed in)
    oracle_shares: tuple[float, ...] = ()  # held-out oracle run k: share of the other runs' triples it fails

    @property
    def share(self) -> float:
        return self.failed_triples / self.triples if self.triples else 0.0

    @property
    def allowed_share(self) -> float:
        """A majority, or the oracle's worst share when every held-out run had MIN_TRIPLES triples to
        fail (N >= 6: with 4 runs one held-out triple each, a share is all or nothing)."""
        return max([MAJORITY, *(self.oracle_shares if len(self.oracle_shares) >= MIN_SHARE_RUNS else ())])

    @property
    def passed(self) -> bool:
        return self.share < MAJORITY or (self.share <= self.allowed_share and self.share < 1.0)

    @property
    def failed_sections(self) -> list[str]:
        if self.passed:
            return []
        most = [name for name, count in self.section_failures if 2 * count >= self.triples]
        return most or [name for name, count in self.section_failures if count]

    def lines(self) -> list[str]:
        runs = len(self.overall.oracle)
        head = (f"judged against each of the {self.triples} triples of the {runs} oracle runs with the 3-run "
                f"self-check: FAIL against {self.failed_triples} of {self.triples} ("
                + (", ".join(f"{name} {count}" for name, count in self.section_failures if count) or "none")
                + "); each oracle run against the other runs' triples: FAIL against "
                + ", ".join(f"{share:.0%}" for share in self.oracle_shares)
                + f"; allowed: less than half, or up to the oracle's worst ({self.allowed_share:.0%}): "
                + ("PASS" if self.passed else "FAIL (" + ", ".join(self.failed_sections) + ")"))
        figures = Calibration(self.sections, self.overall, self.margin)
        return [head] + [f"against all {runs} runs (figures only): " + line for line in figures.lines()]

    def as_json(self) -> dict:
        return {**super().as_json(), "rule": "triples", "triples": self.triples,
                "failed_triples": self.failed_triples, "section_failures": dict(self.section_failures),
                "oracle_shares": list(self.oracle_shares), "allowed_share": self.allowed_share}


MAJORITY = 0.5
MIN_SHARE_RUNS = 6  # oracle runs for their own shares to count: each held out against C(5,3) = 10 triples


def _failed_share(oracle_runs: list[dict], ours: dict, rtol: float, margin: float) -> tuple[list[Calibration], float]:
    verdicts = [calibrate(list(triple), ours, rtol=rtol, margin=margin) for triple in combinations(oracle_runs, MIN_RUNS)]
    return verdicts, sum(not verdict.passed for verdict in verdicts) / len(verdicts)


def judge_by_triples(oracle_runs: list[dict], ours: dict, *, rtol: float, margin: float = DEFAULT_MARGIN) -> Judgement:
    """The side against N > 3 oracle runs of a random oracle, each triple judged as a 3-run verdict is.

    Judging against all N at once widens every allowance (margin x the range of N runs grows with
    N) and forgives real shifts; each triple keeps the 3-run rule's power. The side passes when it
    fails fewer than half the triples, or (with 6 or more runs) no larger a share than some oracle run
    fails against the triples of the others, never all of them (on the test bed's bert run_classifier, 6 TF 1.15 runs: two of them fail
    6 of 10, so the 3-run rule's own false FAILs there are no rare event). On synthetic harvests
    (docs/results/2026-11-28-stochastic-programs.md) a loss shifted by 5-10x its noise still fails
    as often as with 3 runs, where judging against all 6 at once let 10 of 60 more pass.
    """
    if len(oracle_runs) <= MIN_RUNS:
        return judge_calibrated(oracle_runs, ours, rtol=rtol, margin=margin)
    # the numbers: against the first 3 runs, the verdict escalation reconsiders (the spread rule against
    # all N would pass the side before the triples are asked: Judgement.passed trusts the spread rule)
    judgement = replace(_judge(oracle_runs[:MIN_RUNS], ours, rtol, margin), oracle_runs=len(oracle_runs))
    figures = calibrate(oracle_runs, ours, rtol=rtol, margin=margin)
    verdicts, _ = _failed_share(oracle_runs, ours, rtol, margin)
    failures = {section.section: 0 for section in figures.sections}
    for verdict in verdicts:
        for name in verdict.failed_sections:
            failures[name] = failures.get(name, 0) + 1
    shares = tuple(_failed_share(oracle_runs[:k] + oracle_runs[k + 1:], run, rtol, margin)[1]
                   for k, run in enumerate(oracle_runs))
    return replace(judgement, calibration=ByTriples(figures.sections, figures.overall, margin, len(verdicts),
                                                    sum(not verdict.passed for verdict in verdicts),
                                                    tuple(sorted(failures.items())), shares))


SHOWN = 5


def notes(judgement: Judgement) -> list[str]:
    """The per-phase notes: the self-check's figures, and the numbers outside it let pass (or the N < 3 note)."""
    calibration = judgement.calibration
    one_step = [line for line in (discrete.note(judgement),) if line]
    if calibration is None:
        note = uncalibrated_note(judgement)
        return ([note] if note else []) + one_step
    lines = list(calibration.lines()) + one_step
    outside = sorted(judgement.outside, key=lambda n: -n.difference / n.allowed)
    if outside and calibration.passed:
        spread_of = (f"oracle runs 1-{MIN_RUNS}" if isinstance(calibration, ByTriples)
                     else f"all {judgement.oracle_runs} runs")
        lines.append(f"{len(outside)} number(s) outside {judgement.margin:g} x the spread of {spread_of}, within what the oracle misses against itself: " + "; ".join(
                         f"{n.where} {n.difference:.1e} (allowed {n.allowed:.1e})" for n in outside[:SHOWN])
                     + (f"; {len(outside) - SHOWN} more in verify.json" if len(outside) > SHOWN else ""))
    return lines
