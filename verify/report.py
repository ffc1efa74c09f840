"""A VerifyResult as a rich table with a diagnosis, and as JSON (every judged number in it)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.table import Table
from rich.text import Text

from verify.escalation import summary as escalation_summary
from verify.escalation import summary_line as escalation_line
from verify.judge import Judgement, first_divergence, series_of, worst_variables
from verify.pipeline import Phase, SideResult, VerifyResult

STYLE = {"PASS": "bold green", "FAIL": "bold red", "LIMITED": "yellow", "NOT RUN": "yellow"}
SHOWN = 5  # names, mismatches and variables listed per diagnosis line


def _judgement_cells(phase: Phase) -> tuple[str, str, str, str]:
    judgement = phase.judgement
    if judgement is None:
        return "-", "-", "-", "-"
    counts = {"exact": 0, "within spread": 0, "outside": 0}
    for number in judgement.numbers:
        counts[number.verdict] += 1
    compared = (f"{len(judgement.numbers)}: {counts['exact']} exact, {counts['within spread']} within spread, "
                f"{counts['outside']} outside")
    worst = max(judgement.numbers, key=lambda n: n.difference, default=None)
    difference = f"{worst.difference:.1e}\n{worst.where}" if worst else "-"
    spread = max((n.spread for n in judgement.numbers), default=0.0)
    held = (f"rtol {judgement.rtol:g}" if spread == 0 else
            f"max(rtol {judgement.rtol:g}, {judgement.margin:g} x spread)")
    calibration = judgement.calibration
    if calibration is not None:  # the oracle's self-check decides (verify/calibration.py)
        overall = calibration.overall
        compared += (f"\noracle against itself: {overall.oracle_outside} of {overall.compared} outside, worst ratio "
                     f"{overall.oracle_worst.worst_ratio:.2g}\nthis side: {overall.side_outside} of {overall.compared} "
                     f"outside, worst ratio {overall.side_worst.worst_ratio:.2g}")
        held += "; calibrated per section: <= 2 x the oracle's own count + 2, ratio <= max(1, margin x its own)"
        if not calibration.passed:
            held += " (FAIL: " + ", ".join(calibration.failed_sections) + ")"
    elif spread:
        held += f"; no self-check ({judgement.oracle_runs} oracle runs)"
    return compared, difference, f"{spread:.1e} ({judgement.oracle_runs} runs)", held


def render(result: VerifyResult) -> Table:
    program = result.program
    title = (f"verify {program.script.name}: oracle {result.oracle} (TF {result.tensorflow or '?'}; "
             f"{result.oracle_reason})")
    escalated = escalation_line(escalation_summary(result.oracle_runs))
    if escalated:
        title += f"; {escalated}"
    table = Table(title=title, show_lines=True)
    for header in ("side", "phase", "verdict", "numbers compared", "largest difference (where)",
                   "oracle spread", "held to"):
        table.add_column(header, overflow="fold")
    for side in result.sides:
        names_differ = bool(side.names_only_in_oracle or side.names_only_on_side or side.names_different)
        if side.crashed and not any(p.judgement or p.limitation for p in side.phases):
            table.add_row(side.side, "-", Text("FAIL", style=STYLE["FAIL"]), side.crashed, "-", "-", "-")
            if names_differ:
                table.add_row(side.side, "checkpoint", Text("FAIL", style=STYLE["FAIL"]), "names: DIFFER", "-", "-",
                              "-")
            continue
        for phase in side.phases:
            verdict = Text(phase.status, style=STYLE[phase.status])
            if phase.limitation is not None:
                table.add_row(side.side, phase.name, verdict, phase.limitation.code + " " + phase.limitation.title,
                              "-", "-", "-")
                continue
            table.add_row(side.side, phase.name, verdict, *_judgement_cells(phase))
        names = "names: " + ("DIFFER" if names_differ else "same")
        if side.crashed:
            table.add_row(side.side, "run", Text("FAIL", style=STYLE["FAIL"]), side.crashed, "-", "-", "-")
        table.add_row(side.side, "checkpoint", Text("PASS" if names.endswith("same") else "FAIL",
                                                    style=STYLE["PASS" if names.endswith("same") else "FAIL"]),
                      names, "-", "-", "-")
    return table


def diagnosis(result: VerifyResult) -> list[str]:
    """What a user needs to act on: where each failing side differs, and what was not judged."""
    lines = []
    if result.error:
        lines.append(f"could not verify: {result.error}")
    for side in result.sides:
        prefix = f"{side.side}:"
        if side.crashed:
            lines.append(f"{prefix} {side.crashed}" + (f" (log: {side.log})" if side.log else ""))
        if side.names_only_in_oracle:
            lines.append(f"{prefix} checkpoint names only in the oracle ({len(side.names_only_in_oracle)}): "
                         + ", ".join(side.names_only_in_oracle[:SHOWN]))
        if side.names_only_on_side:
            lines.append(f"{prefix} checkpoint names only on this side ({len(side.names_only_on_side)}): "
                         + ", ".join(side.names_only_on_side[:SHOWN]))
        if side.names_different:
            lines.append(f"{prefix} same name, other dtype/shape: " + "; ".join(side.names_different[:SHOWN]))
        for phase in side.phases:
            lines += [f"{prefix} {phase.name} phase: note: {note}" for note in phase.notes]
            if phase.limitation is not None:
                lines.append(f"{prefix} {phase.name} phase not judged: {phase.limitation.message}")
                if phase.judgement is not None:  # VER006: judged, not counted; what a side lacks still shows
                    lines += [f"{prefix} {phase.name} phase: {line}" for line in _series_lines(phase.judgement)]
            elif phase.judgement is not None and not phase.judgement.passed:
                lines += [f"{prefix} {phase.name} phase: {line}" for line in _judgement_diagnosis(phase.judgement)]
    return lines


def _judgement_diagnosis(judgement: Judgement) -> list[str]:
    lines = []
    if not judgement.numbers:
        lines.append("nothing to compare (the oracle's run wrote no numbers verify reads)")
    for tag, step in sorted(first_divergence(judgement).items()):
        number = next(n for n in judgement.numbers if n.where == f"scalars.{tag}.{step}")
        lines.append(f"`{tag}` first diverges at step {step}: oracle {number.oracle:.8g}, ours {number.ours:.8g} "
                     f"(difference {number.difference:.1e}, allowed {number.allowed:.1e})")
    worst = [(name, d, a) for name, d, a in worst_variables(judgement) if d > a]
    if worst:
        lines.append("variables that differ most: " + ", ".join(
            f"{name} {difference:.1e} (allowed {allowed:.1e})" for name, difference, allowed in worst))
    others = [n for n in judgement.outside if not n.where.startswith(("scalars.", "variables."))]
    for number in others[:SHOWN]:
        lines.append(f"{number.where}: oracle {number.oracle:.8g}, ours {number.ours:.8g} "
                     f"(difference {number.difference:.1e}, allowed {number.allowed:.1e})")
    if judgement.missing:
        lines.append(f"written by the oracle, not by this side ({len(judgement.missing)}): "
                     + ", ".join(judgement.missing[:SHOWN]))
    if judgement.unexpected:
        lines.append(f"written by this side, not by the oracle ({len(judgement.unexpected)}): "
                     + ", ".join(judgement.unexpected[:SHOWN]))
    lines += list(judgement.mismatched[:SHOWN])
    return lines


def _named_series(where: str) -> str:
    """A number's series as a user names it: a variable (judge.series_of), else its place without
    the step (`scalars.loss.12` -> `scalars.loss`, `evaluation.eval.accuracy.40` -> `evaluation.eval.accuracy`)."""
    if where.startswith("variables."):
        return series_of(where)
    head, _, tail = where.rpartition(".")
    return head if head and tail.isdigit() else where


def _grouped(places) -> str:
    counts: dict[str, int] = {}
    for where in places:
        counts[_named_series(where)] = counts.get(_named_series(where), 0) + 1
    shown = [f"{series} ({count})" for series, count in list(counts.items())[:SHOWN]]
    more = f", ... {len(counts) - SHOWN} more" if len(counts) > SHOWN else ""
    return f"{len(counts)} series: " + ", ".join(shown) + more


def _series_lines(judgement: Judgement) -> list[str]:
    """The series a side lacks or adds, by name with their count of numbers."""
    lines = []
    if judgement.missing:
        lines.append("written by the oracle, missing on this side: " + _grouped(judgement.missing))
    if judgement.unexpected:
        lines.append("written by this side, not by the oracle: " + _grouped(judgement.unexpected))
    return lines


def _phase_json(phase: Phase) -> dict:
    document = {"phase": phase.name, "status": phase.status, "model_dir": phase.model_dir,
                "seconds": phase.seconds, "notes": phase.notes}
    if phase.limitation is not None:
        document["limitation"] = {"code": phase.limitation.code, "message": phase.limitation.message}
    judgement = phase.judgement
    if judgement is not None:
        document.update(
            rtol=judgement.rtol, margin=judgement.margin, oracle_runs=judgement.oracle_runs,
            passed_by_spread=judgement.passed_by_spread,
            calibration=judgement.calibration.as_json() if judgement.calibration is not None else None,
            sections={name: vars(summary) for name, summary in judgement.sections().items()},
            first_divergence=first_divergence(judgement),
            worst_variables=[{"name": n, "difference": d, "allowed": a} for n, d, a in worst_variables(judgement)],
            missing=list(judgement.missing), unexpected=list(judgement.unexpected),
            mismatched=list(judgement.mismatched),
            numbers=[{"where": n.where, "oracle": n.oracle, "ours": n.ours, "difference": n.difference,
                      "spread": n.spread, "allowed": n.allowed, "verdict": n.verdict} for n in judgement.numbers])
    return document


def _side_json(side: SideResult) -> dict:
    return {"side": side.side, "status": side.status, "crashed": side.crashed, "log": side.log,
            "names_only_in_oracle": side.names_only_in_oracle, "names_only_on_side": side.names_only_on_side,
            "names_different": side.names_different, "phases": [_phase_json(p) for p in side.phases]}


def as_json(result: VerifyResult) -> dict:
    program = result.program
    return {
        "program": {"script": str(program.script), "args": list(program.args), "steps": program.steps,
                    "migrated_script": str(program.migrated_script) if program.migrated_script else None},
        "oracle": result.oracle, "oracle_reason": result.oracle_reason, "tensorflow": result.tensorflow,
        "oracle_runs": result.oracle_runs, "oracle_deterministic": result.oracle_deterministic,
        "oracle_global_step_race": result.oracle_global_step_race,
        "oracle_race_ordered": result.oracle_race_ordered,
        "oracle_exact_deterministic": result.oracle_exact_deterministic,
        "escalation": escalation_summary(result.oracle_runs),
        "work_dir": result.work_dir, "exit_code": result.exit_code,
        "error": result.error, "sides": [_side_json(side) for side in result.sides],
        "diagnosis": diagnosis(result),
    }


def write_json(result: VerifyResult, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(as_json(result), indent=1, sort_keys=True, default=str) + "\n")
