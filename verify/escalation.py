"""A narrow FAIL of the training phase: more oracle runs, the side judged again against all of them.

Three oracle runs measure how far the oracle moves when only its rounding changes, but they can
miss an outcome the oracle reaches now and then: brightmart/albert_zh's run_classifier in the
test bed (a tiny classifier that predicts one class for all 23 eval examples) gave
`eval_accuracy` 14/23 in all 3 TF 1.15 runs while its eval loss varied 0.6713-0.6794; the
migrated side's logits crossed zero (eval loss 0.6978, within 3x that spread) and flipped 5
examples at once (9/23). Three runs that never cross cannot say how often the oracle's own
prediction crosses. More runs can; they cost time, so only a FAIL that more runs could turn is
escalated. "Narrow" (narrow_failure):

  * the training phase failed the calibrated rule (verify/calibration.py) with nothing missing,
    unexpected or mismatched (those no spread can forgive);
  * 1 to MAX_COUNT_RATIOS of its numbers outside are count ratios every oracle run repeats
    exactly (named as an accuracy or a copy of one, on a lattice k/n with the side's value:
    discrete.count_ratios) -- an accuracy that flipped -- and the continuous numbers of their
    series (the same evaluation's losses) are all within their allowance against every oracle
    run. A FAIL on continuous numbers alone is not escalated: 3 x the range of 6 runs is wider
    than of 3, and on synthetic harvests escalating such near misses let a loss shifted by
    5-10x its noise pass in 9 of 40 trials instead of 2;
  * without those count ratios, every failing section is within NARROW times both its
    calibrated bounds (count of numbers outside and worst ratio, against every subset); on a
    random oracle (below) the count bound alone.

Then ESCALATION_RUNS more oracle runs are made, as the calibration's own spread runs are
(verify/oracle_plan.py: run k from the start state moved one ulp with seed k, alternating 1 and
2 x CPUs intra-op threads, oneDNN alternating on a TF 2.x oracle), within a time box, and the side
is judged again with every run (spread, envelope and the self-check over all of them). All the
planned runs are made before judging again (no stopping at the first PASS: that would pick the
luckiest count of runs). A side judged again passes only if the oracle itself reached what the
side did: a wrong side (learning rate x1.01, a renamed layer) fails far outside these bounds and
is never escalated; a side whose count ratio the extra runs never reach still fails, with the
runs counted in its note. Measured on synthetic harvests (tests/verify/calibration_trials.py) in
docs/results/2026-11-28-escalation.md.

A random oracle (continuous_near_miss). When the oracle's runs differ at their first logged step
far beyond rounding (verify/stochastic.py: unseeded dropout, shuffles), every run, the oracle's
and each side's, is one more draw, and three draws leave the calibrated bounds themselves random:
a side drawn like the oracle fails them 5-10% of the time (the test bed's BERT programs, dropout
0.1, fail one of 12 sides per cold run). Such a FAIL on continuous numbers alone, every failing
section within NARROW times its count bound, is escalated too, but judged again differently
(judge_again): against every triple of the N runs with the 3-run rule, passing when it fails
fewer than half of them or no larger a share than some held-out oracle run fails against the
other runs' triples (calibration.judge_by_triples). Judging against all N at once is what let
shifted losses pass (above); each triple keeps the 3-run rule's power. Measured in
docs/results/2026-11-28-stochastic-programs.md.
The worst ratio is not bounded there: a random oracle's number can take one of two values far
apart (the test bed's tpu_efficientnet, unseeded drop-connect: a batch-norm moving mean ~1.5e-8
in a run that dropped no sample in its block, ~3e-3..4e-3 in one that did, block 2 in ~33% of
runs, block 4 in ~56%), and a side on the value none of the 3 oracle runs drew fails with a worst
ratio of 3e4 against the oracle's 117 -- both sides failed ~17% of draws. The triples then decide:
a held-out oracle run on the other value fails every triple of the others, so a side that a new
run joins passes, and a wrong side far off fails every triple (never passes). Measured in
docs/results/2026-11-28-two-valued-escalation.md.
Nor is the count of a section the spread rule passes (none of its numbers beyond 3x the spread of all
3 runs): numbers that move together by the draw (bert run_classifier's 36 predictions, every one at
its run's level) are all inside or all outside against 2 runs, so the count bound is ~2 or ~70 by
which 3 runs were drawn (a cold test-bed run: TF 1.15's 3 runs close together, the oracle against
itself 2 of 36 outside, allowed 6; the migrated side 16, within 3x the spread of all 3, and never
escalated). The triples judge such a side again, each with the 3-run rule's power. Measured in
docs/results/2026-11-29-random-oracle-escalation.md.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from verify import calibration, comparable, discrete, oracle_cache, oracle_plan, oracles, stochastic
from verify.compare import flatten_numbers
from verify.judge import OUTSIDE, Judged, Judgement, series_of
from verify.pipeline import (CKPT0, Phase, Runner, Silent, VerifyResult, harvest_file,
                             oracle_has_onednn)
from verify.sides import seed_model_dir

NARROW = 2.0  # a failing section within this factor of both its calibrated bounds
MAX_COUNT_RATIOS = 4  # count ratios outside (one accuracy written to an evaluation, a summary and a file)
ESCALATION_RUNS = 3  # oracle runs added (3 -> 6: each held-out judgement then rests on 5 runs)
ESCALATION_SECONDS = 900.0  # no further run is started once the added runs took this long


@dataclass(frozen=True)
class EscalationOptions:
    runs: int = ESCALATION_RUNS  # 0: never escalate
    seconds: float = ESCALATION_SECONDS


@dataclass
class Escalation:
    """What escalation did in one verify: the added runs are in verify.json's `oracle_runs` (marked
    `escalation`), the why and the verdict in each escalated phase's notes (summary: summary())."""

    reasons: dict[str, str] = field(default_factory=dict)  # side: why its FAIL was narrow
    runs_before: int = 0
    runs_added: int = 0
    seconds: float = 0.0
    verdicts: dict[str, tuple[str, str]] = field(default_factory=dict)  # side: (before, after)


def summary(oracle_runs: list[dict]) -> dict | None:
    """verify.json's `escalation`: the oracle runs escalation added, those of them an earlier verify
    kept (--reuse-oracle), and the time of the others; None when it did not run."""
    added = [run for run in oracle_runs if run.get("escalation")]
    if not added:
        return None
    return {"runs_before": len(oracle_runs) - len(added), "runs_added": len(added),
            "runs_kept": sum(1 for run in added if run.get("kept")),
            "seconds": round(sum(run.get("seconds", 0.0) for run in added if not run.get("kept")), 1)}


def summary_line(escalated: dict | None) -> str:
    """verify.json's `escalation` in words for the table's title and the HTML report ('' for None)."""
    if not escalated:
        return ""
    kept = f", {escalated['runs_kept']} of them kept by an earlier verify" if escalated.get("runs_kept") else ""
    return (f"escalated: a side failed narrowly against {escalated['runs_before']} oracle runs, "
            f"{escalated['runs_added']} more run(s){kept} in {escalated['seconds']:.0f} s")


def repeated_count_ratio(number: Judged, oracle_flat: list[dict], ratios: frozenset[str]) -> bool:
    """An accuracy outside: a count ratio (discrete.count_ratios: named so, or a copy of one) all oracle runs repeat."""
    if number.verdict != OUTSIDE or number.where not in ratios:
        return False
    return all(run.get(number.where) == number.oracle for run in oracle_flat)


def _section(where: str) -> str:
    return where.split(".", 1)[0]


def _side_figures(oracle_runs: list[dict], ours: dict, *, rtol: float, margin: float,
                  left_out: set[str]) -> dict[str, tuple[int, float]]:
    """{section: (most numbers outside, worst ratio)} of the side against every N-1 subset, as the
    calibration computes them, with the numbers `left_out` not counted."""
    figures: dict[str, tuple[int, float]] = {}
    for k in range(len(oracle_runs)):
        judged = calibration._judge(oracle_runs[:k] + oracle_runs[k + 1:], ours, rtol, margin)
        per: dict[str, tuple[int, float]] = {}
        for number in judged.numbers:
            if number.where in left_out:
                continue
            outside, worst = per.get(_section(number.where), (0, 0.0))
            per[_section(number.where)] = (outside + (number.verdict == OUTSIDE),
                                           max(worst, number.difference / number.allowed))
        for name, (outside, worst) in per.items():
            before = figures.get(name, (0, 0.0))
            figures[name] = (max(before[0], outside), max(before[1], worst))
    return figures


def narrow_failure(judgement: Judgement, oracle_runs: list[dict], ours: dict) -> str | None:
    """Why this failed training phase is narrow enough for more oracle runs to turn (module docstring), or None."""
    return flipped_count_ratio(judgement, oracle_runs, ours) or continuous_near_miss(judgement, oracle_runs)


def continuous_near_miss(judgement: Judgement, oracle_runs: list[dict]) -> str | None:
    """A random oracle, and a FAIL on continuous numbers within NARROW x every failing section's count bound
    (its worst ratio unbounded: a number the oracle's draws set to one of two values), a section the spread
    rule passes unbounded (module docstring)."""
    calibrated = judgement.calibration
    if (judgement.passed or calibrated is None or isinstance(calibrated, calibration.ByTriples)
            or judgement.missing or judgement.unexpected or judgement.mismatched):
        return None
    random = stochastic.beyond_rounding(oracle_runs)
    if random is None:
        return None  # an oracle that only rounds differently: its spread is no draw to repeat
    flat = [flatten_numbers(run) for run in oracle_runs]
    ratios = discrete.count_ratios(judgement)
    if any(repeated_count_ratio(n, flat, ratios) for n in judgement.outside):
        return None  # a flipped count ratio: flipped_count_ratio's rule, or not narrow
    by_spread = {_section(n.where) for n in judgement.outside}  # sections with numbers beyond 3x the spread of all runs
    parts = []
    for section in calibrated.sections:
        if section.passed:
            continue
        outside, worst = section.side_outside, section.side_worst.worst_ratio
        if section.section not in by_spread:
            parts.append(f"{section.section}: {outside} outside against {len(oracle_runs) - 1} runs (allowed "
                         f"{section.allowed_outside}), none against all {len(oracle_runs)} (the spread rule's "
                         "PASS: no count bound)")
            continue
        if outside > NARROW * section.allowed_outside:
            return None
        parts.append(f"{section.section}: {outside} outside (allowed {section.allowed_outside}), worst ratio "
                     f"{worst:.2g} (allowed {section.allowed_ratio:.2g}"
                     + (", beyond 2x: numbers a random oracle may reach on another draw)"
                        if worst > NARROW * section.allowed_ratio else ")"))
    return (stochastic.note(random) + "; every failing section within 2x its calibrated count of numbers outside"
            " or passed by the spread rule: " + "; ".join(parts))


def judge_again(before: Judgement, runs_before: list[dict], runs: list[dict], ours: dict) -> Judgement:
    """The side against all the runs after escalation: each triple by the 3-run rule when the FAIL was a
    continuous near miss on a random oracle, else the calibrated rule over all runs (module docstring)."""
    if continuous_near_miss(before, runs_before) is not None:
        return calibration.judge_by_triples(runs, ours, rtol=before.rtol, margin=before.margin)
    return calibration.judge_calibrated(runs, ours, rtol=before.rtol, margin=before.margin)


def flipped_count_ratio(judgement: Judgement, oracle_runs: list[dict], ours: dict) -> str | None:
    """1 to MAX_COUNT_RATIOS count ratios the oracle repeats, flipped, beside numbers within bounds."""
    calibrated = judgement.calibration
    if judgement.passed or calibrated is None or judgement.missing or judgement.unexpected or judgement.mismatched:
        return None
    flat = [flatten_numbers(run) for run in oracle_runs]
    ratios = discrete.count_ratios(judgement)
    counts = [n for n in judgement.outside if repeated_count_ratio(n, flat, ratios)]
    if not counts or len(counts) > MAX_COUNT_RATIOS:
        return None  # continuous near misses alone: more runs widen 3 x the spread (module docstring)
    count_series = {series_of(n.where) for n in counts}
    where_counts = {n.where for n in counts}
    neighbours = [n for n in judgement.numbers if series_of(n.where) in count_series and n.where not in where_counts]
    if any(n.verdict == OUTSIDE for n in neighbours):
        return None
    figures = _side_figures(oracle_runs, ours, rtol=judgement.rtol, margin=judgement.margin,
                            left_out=where_counts)
    parts = []
    for section in calibrated.sections:
        if section.passed:
            continue
        outside, worst = figures.get(section.section, (0, 0.0))
        if outside > NARROW * section.allowed_outside or worst > NARROW * section.allowed_ratio:
            return None
        parts.append(f"{section.section}: {outside} continuous number(s) outside (allowed {section.allowed_outside}), "
                     f"worst ratio {worst:.2g} (allowed {section.allowed_ratio:.2g})")
    for n in counts:
        closest = max((m for m in neighbours if series_of(m.where) == series_of(n.where)),
                      key=lambda m: m.difference / m.allowed, default=None)
        parts.append(f"{n.where} {_fraction(n.ours)} against {_fraction(n.oracle)} in all {len(oracle_runs)} oracle "
                     "runs, a count ratio" + (f" whose series' other numbers are within their allowance (closest "
                                              f"{closest.where} at {closest.difference / closest.allowed:.2g} of it)"
                                              if closest is not None else ""))
    return "; ".join(parts)


def _fraction(value: float) -> str:
    n = discrete.denominator(value)
    return f"{round(value * n)}/{n}" if n else f"{value:.6g}"


def training_inputs(work: Path, side: str, oracle_runs: list[dict]) -> tuple[list[dict], dict, list[str]]:
    """(oracle runs, the side's harvest) as pipeline.Runner._side judges them, from the kept harvests."""
    ours = json.loads(harvest_file(work / side / "training").read_text())
    return comparable.training_inputs(oracle_runs, ours)


def _training(phases: list[Phase]) -> Phase | None:
    return next((phase for phase in phases if phase.name == "training"), None)


def escalate(runner: Runner, result: VerifyResult, options: EscalationOptions = EscalationOptions()) -> Escalation | None:
    """More oracle runs when a side's training phase failed narrowly, and those sides judged again."""
    if options.runs <= 0 or result.error is not None or not result.oracle_runs:
        return None
    failed = [side for side in result.sides if not side.crashed and _training(side.phases) is not None
              and _training(side.phases).status == "FAIL"]
    if not failed:
        return None
    work = Path(result.work_dir)
    base = [json.loads(harvest_file(Path(run["model_dir"])).read_text()) for run in result.oracle_runs]
    escalation = Escalation(runs_before=len(base))
    judged_with: dict[str, list[dict]] = {}  # side: the oracle runs its FAIL was judged with
    for side in failed:
        phase = _training(side.phases)
        runs, ours, _ = training_inputs(work, side.side, base)
        reason = narrow_failure(phase.judgement, runs, ours)
        if reason is not None:
            escalation.reasons[side.side], judged_with[side.side] = reason, runs
    if not escalation.reasons:
        return None
    more = _more_runs(runner, result, options, escalation)
    for name in escalation.reasons:
        side = next(s for s in result.sides if s.side == name)
        phase = _training(side.phases)
        before = side.status
        runs, ours, _ = training_inputs(work, name, base + more)
        old_notes = set(calibration.notes(phase.judgement))
        judgement = judge_again(phase.judgement, judged_with[name], runs, ours)
        phase.judgement = judgement
        phase.notes = [note for note in phase.notes if note not in old_notes]
        phase.notes.append(note(escalation, name, judgement))
        phase.notes += calibration.notes(judgement)
        escalation.verdicts[name] = (before, side.status)
    return escalation


def _more_runs(runner: Runner, result: VerifyResult, options: EscalationOptions, escalation: Escalation) -> list[dict]:
    """Oracle runs N+1.. (as oracle_plan plans spread runs), within the time box; their harvests.

    With --reuse-oracle the runs an earlier escalation of the same program kept come first
    (oracle_cache.py), and the runs made now are kept for the next."""
    python = str(oracles.ensure(result.oracle, provision=False))
    folder, start = runner.work / "oracle", runner.work / "start_state"
    start_files = sorted(path for path in start.glob(f"{CKPT0}.*")) if start.exists() else []
    alternate = oracle_has_onednn(result.tensorflow)
    cache_key = oracle_cache.key(runner.program, runner.options, result.oracle) if runner.options.reuse_oracle else None
    kept = oracle_cache.kept_escalation_runs(cache_key) if cache_key else []
    runner.progress.note(f"a side failed narrowly: up to {options.runs} more oracle runs ("
                         + "; ".join(f"{side}: {why}" for side, why in escalation.reasons.items()) + ")")
    started, more = time.perf_counter(), []
    first = escalation.runs_before + 1
    for index in range(first, first + options.runs):
        entry = next((e for e in kept if e["model_dir"] == f"run{index}"), None)
        if entry is not None:
            oracle_cache.restore_escalation_run(cache_key, entry, folder)
            more.append(json.loads(harvest_file(folder / entry["model_dir"]).read_text()))
            result.oracle_runs.append({**entry, "model_dir": str(folder / entry["model_dir"]), "kept": True})
            runner.progress.note(f"oracle {result.oracle} run {index} (escalation): kept by an earlier verify, reused")
            continue
        if time.perf_counter() - started > options.seconds:
            runner.progress.note(f"escalation stopped after {len(more)} run(s): {options.seconds:.0f} s used")
            break
        how = oracle_plan.spread_run(index, alternate_onednn=alternate,
                                     recorded_start=bool(start_files) or runner.keras_start is not None)
        model_dir = folder / f"run{index}"
        run_started = time.perf_counter()
        try:
            seed_model_dir(model_dir, runner._nudged(start_files, how.nudge_seed, folder / f"start{index}"),
                           CKPT0 if start_files else None)
            more.append(runner.run(f"oracle {result.oracle} run {index} (escalation), {how.describe()}",
                                   runner._oracle_command(python), python, model_dir, None,
                                   python_path=runner.oracle_path, onednn=how.onednn,
                                   intra_op_threads=how.intra_op_threads,
                                   keras_start=runner._nudged_keras_start(how.nudge_seed, folder / f"start{index}")))
        except Exception as error:  # the oracle ran this program 3 times; a run that breaks now ends escalation
            runner.progress.note(f"escalation stopped: oracle run {index} failed ({str(error).splitlines()[0]})")
            break
        entry = {"model_dir": model_dir.name, **how.as_json(), "escalation": True,
                 "seconds": round(time.perf_counter() - run_started, 1)}
        result.oracle_runs.append({**entry, "model_dir": str(model_dir)})
        if cache_key:
            oracle_cache.store_escalation_run(cache_key, folder, entry)
    escalation.runs_added, escalation.seconds = len(more), time.perf_counter() - started
    return more


def note(escalation: Escalation, side: str, judgement: Judgement) -> str:
    """The training phase's note: escalated, why, how many runs, how long, the verdict after."""
    return (f"escalated: the training phase failed narrowly against {escalation.runs_before} oracle runs "
            f"({escalation.reasons[side]}); {escalation.runs_added} more oracle run(s) in "
            f"{escalation.seconds:.0f} s, judged again against "
            + ("each 3 of " if isinstance(judgement.calibration, calibration.ByTriples) else "")
            + f"all {judgement.oracle_runs}: "
            + ("PASS" if judgement.passed else "FAIL"))


def verify_program(program, options, progress=None,
                   escalation: EscalationOptions = EscalationOptions()) -> VerifyResult:
    """pipeline.verify_program, then escalation of the sides whose training phase failed narrowly."""
    runner = Runner(program, options, progress or Silent())
    result = runner.verify()
    escalate(runner, result, escalation)
    return result
