"""The main job's side-by-side table: one row per (example, side), built from a golden and a run.

Pure: rows are made from data (a golden, a harvested run or the reason there is none) and
rendered with rich; running anything is shipped.py's business.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rich.table import Table

from verify.compare import Comparison, loss_at_last_step

# rtol for one device (issue 4). Why it can be this tight: golden.py's module docstring.
DEFAULT_RTOL = 1e-6

PASS, FAIL, NOT_RUN, KNOWN_GAP = "PASS", "FAIL", "NOT RUN", "KNOWN GAP"


@dataclass(frozen=True)
class Row:
    example: str
    oracle: str
    side: str
    steps: str
    oracle_loss: str
    our_loss: str
    max_relative: str
    oracle_eval: str
    our_eval: str
    verdict: str
    note: str = ""


def _format_eval(result: dict | None) -> str:
    if not result or "eval" not in result:
        return "-"
    metrics = result["eval"]
    return " ".join(f"{key}={metrics[key]:.6g}" for key in sorted(metrics) if key != "global_step")


def _loss_cells(golden_result: dict, tag: str | None, our_result: dict | None):
    golden_last = loss_at_last_step(golden_result, tag or "loss")
    ours_last = loss_at_last_step(our_result, tag or "loss") if our_result else None
    steps = str(golden_last[0]) if golden_last else "-"
    oracle_loss = f"{golden_last[1]:.7f}" if golden_last else "-"
    our_loss = f"{ours_last[1]:.7f}" if ours_last else "-"
    return steps, oracle_loss, our_loss


def compared_row(example, golden: dict, side: str, ours: dict, comparison: Comparison,
                 rtol: float = DEFAULT_RTOL) -> Row:
    """A row for a run that finished: PASS when every golden number is matched within rtol."""
    tag = example.tags[0] if example.tags else None
    steps, oracle_loss, our_loss = _loss_cells(golden["result"], tag, ours)
    failures = comparison.failures(rtol, section_rtol=example.section_rtol)
    note = f"rtol {rtol:g}" if rtol != DEFAULT_RTOL else ""
    if example.section_rtol:
        note = ", ".join([note] * bool(note) + [f"{k} rtol {v:g}" for k, v in example.section_rtol.items()])
    if failures:
        note = f"{len(failures)} mismatch(es), first: {failures[0]}"
    return Row(example.name, f"TF {golden['tensorflow']}", side, steps, oracle_loss, our_loss,
               f"{comparison.max_relative:.1e}", _format_eval(golden["result"]), _format_eval(ours),
               PASS if not failures else FAIL, note)


def failed_row(example, golden: dict, side: str, reason: str, *, ran: bool) -> Row:
    """A row for a run that crashed (FAIL) or a side that cannot run here (NOT RUN)."""
    steps, oracle_loss, _ = _loss_cells(golden["result"], example.tags[0] if example.tags else None,
                                        None)
    return Row(example.name, f"TF {golden['tensorflow']}", side, steps, oracle_loss, "-", "-",
               _format_eval(golden["result"]), "-", FAIL if ran else NOT_RUN, reason)


def render(rows: list[Row], rtol: float | None = None) -> Table:
    tolerance = f"rtol {rtol:g}" if rtol else f"rtol {DEFAULT_RTOL:g} unless the catalog measured otherwise"
    table = Table(title=f"Legacy examples on current TensorFlow vs the oracles ({tolerance})",
                  show_lines=True)
    for header, justify in (("example", "left"), ("oracle", "left"), ("side", "center"),
                            ("steps", "right"), ("oracle loss", "right"), ("our loss", "right"),
                            ("max rel diff", "right"), ("oracle eval", "left"),
                            ("our eval", "left"), ("verdict", "center")):
        table.add_column(header, justify=justify, overflow="fold")
    style = {PASS: "bold green", FAIL: "bold red", NOT_RUN: "yellow", KNOWN_GAP: "magenta"}
    for row in rows:
        verdict = f"[{style[row.verdict]}]{row.verdict}[/]"
        if row.note:
            verdict += f"\n{row.note}"
        table.add_row(row.example, row.oracle, row.side, row.steps, row.oracle_loss, row.our_loss,
                      row.max_relative, row.oracle_eval, row.our_eval, verdict)
    return table


def with_known_gap(row: Row, gap) -> Row:
    """A failed run listed in known_gaps.py: shown as KNOWN GAP with its owner, not as FAIL."""
    if row.verdict != FAIL or gap is None:
        return row
    return dataclasses.replace(row, verdict=KNOWN_GAP, note=f"{gap.owner}; {row.note}")


def exit_code(rows: list[Row]) -> int:
    """Non-zero when any example that ran does not match its golden (or crashed)."""
    return 1 if any(row.verdict == FAIL for row in rows) else 0
