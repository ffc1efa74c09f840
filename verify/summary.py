"""verify.json documents as one-line rows: a side, its verdict, the key numbers of each phase.

For tables over many programs (the test bed's results, the shipped examples run live); pure.
"""

from __future__ import annotations


def _last(numbers: list[dict], prefix: str, needle: str) -> dict | None:
    """The number at the highest step among those under `prefix` whose name holds `needle`."""
    chosen = [n for n in numbers if n["where"].startswith(prefix) and needle in n["where"].split(".")[-2]]
    return max(chosen, key=lambda n: int(n["where"].rsplit(".", 1)[-1]), default=None)


def key_numbers(phase: dict) -> str:
    """The loss a user looks at first: the last training loss and the last evaluation loss."""
    numbers = phase.get("numbers", [])
    cells = []
    for label, number in (("train loss", _last(numbers, "scalars.", "loss")),
                          ("eval loss", _last(numbers, "evaluation.", "loss"))):
        if number is not None:
            cells.append(f"{label} {number['oracle']:.6g} vs {number['ours']:.6g} ({number['difference']:.1e}"
                         f"{', spread ' + format(number['spread'], '.1e') if number['spread'] else ''})")
    return "; ".join(cells)


def summarise_phase(phase: dict) -> str:
    if phase.get("limitation"):
        return f"{phase['limitation']['code']} ({phase['status']})"
    sections = phase.get("sections", {})
    if not sections:
        return phase["status"]
    counts = sum(s["compared"] for s in sections.values())
    outside = sum(s["outside"] + s["missing"] + s["unexpected"] for s in sections.values())
    worst = max(sections.values(), key=lambda s: s["max_difference"])
    spread = max(s["max_spread"] for s in sections.values())
    text = f"{phase['status']}: {counts} numbers, max diff {worst['max_difference']:.1e} ({worst['max_difference_at']})"
    if spread:
        text += f", oracle spread {spread:.1e}"
    if outside:
        text += f", {outside} outside/missing"
    calibration = phase.get("calibration")
    if calibration:
        text += (f"; oracle against itself: {calibration['oracle_outside']} of {counts} outside, worst ratio "
                 f"{calibration['oracle_ratio']:.2g}; this side: {calibration['side_outside']} of {counts}, worst ratio "
                 f"{calibration['side_ratio']:.2g}")
    if any(note.startswith("escalated:") for note in phase.get("notes", [])):
        text += f"; escalated: judged against {phase.get('oracle_runs')} oracle runs"
    key = key_numbers(phase)
    return f"{text}; {key}" if key else text


def summarise(name: str, report: dict | None, output: str) -> list[dict]:
    rows = []
    if report is None:
        tail = [line for line in output.splitlines() if line.strip()][-1:] or ["no output"]
        return [{"program": name, "side": "-", "status": "ERROR", "training": tail[0][:300], "exact": "-",
                 "notes": ""}]
    if report.get("error"):
        return [{"program": name, "side": "-", "status": "VER005 ORACLE FAILS", "training": report["error"][:300],
                 "exact": "-", "notes": ""}]
    for side in report["sides"]:
        phases = {phase["phase"]: phase for phase in side["phases"]}
        notes = [line for line in report["diagnosis"] if line.startswith(side["side"] + ":")]
        training = summarise_phase(phases["training"]) if "training" in phases else "-"
        if side["crashed"] and training in ("-", "NOT RUN"):
            training = f"crashed: {side['crashed']}"
        rows.append({
            "program": name, "side": side["side"], "status": side["status"], "training": training,
            "exact": summarise_phase(phases["exact"]) if "exact" in phases else "-",
            "notes": " | ".join(line.split(":", 1)[1].strip() for line in notes)[:600],
        })
    return rows


def markdown(rows: list[dict], header: str) -> str:
    lines = [header, "", "| program | side | verdict | training phase | exact phase | diagnosis / notes |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        cells = [row[k].replace("|", "\\|").replace("\n", " ") for k in
                 ("program", "side", "status", "training", "exact", "notes")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
