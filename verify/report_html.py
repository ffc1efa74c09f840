"""verify's result as one static HTML file to look at (`verify --html FILE`, default WORK_DIR/verify.html).

What the table and the diagnosis summarise, drawn: per-step curves of every scalar (loss,
learning rate, metrics) and of every evaluation, each oracle run's spread as a band around its
first run and each side as a line; the evaluation and prediction numbers side by side; the
variables that differ most; the diagnosis; the migration's findings. One self-contained file:
inline SVG and CSS, no script, nothing loaded from anywhere, so it opens in any browser from
disk or as a CI artifact.

Built from verify.json's document (report.as_json) and the harvests the runs left in the work
folder (pipeline.harvest_file): a pure function of those, so a finished work folder can be
drawn again.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path

from verify.compare import flatten_numbers
from verify.escalation import summary_line as escalation_line

WIDTH, HEIGHT, PAD = 560, 220, 44
ORACLE_COLOUR, BAND_COLOUR = "#444444", "#c8c8c8"
SIDE_COLOURS = ("#d0402b", "#2b6cd0", "#2b9a4a", "#9a2bd0")
STATUS_COLOUR = {"PASS": "#1f7a33", "FAIL": "#b3261e", "LIMITED": "#9a6a00", "NOT RUN": "#9a6a00"}
TABLE_ROWS = 40  # numbers per evaluation/prediction table
CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;
vertical-align:top}th{background:#f2f2f2}td.n{text-align:right;font-family:monospace}
.charts{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0}figcaption{font-size:13px;font-weight:600}
pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap}
.legend span{margin-right:14px;font-size:13px}.swatch{display:inline-block;width:22px;height:10px;
margin-right:4px;vertical-align:middle}
"""


@dataclass
class Runs:
    """The harvests of one verify: the oracle's runs and each side's phases."""

    oracle: list[dict] = field(default_factory=list)  # training runs 1..N
    oracle_exact: dict | None = None
    sides: dict[str, dict[str, dict]] = field(default_factory=dict)  # side -> phase -> harvest


def _read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def load_runs(work: Path, document: dict) -> Runs:
    """The harvests verify kept in its work folder (missing ones are left out)."""
    runs = Runs()
    for run in document.get("oracle_runs", []):
        harvested = _read(Path(run["model_dir"]).parent / f"{Path(run['model_dir']).name}.harvest.json")
        if harvested is not None:
            runs.oracle.append(harvested)
    runs.oracle_exact = _read(work / "oracle" / "exact.harvest.json")
    for side in document.get("sides", []):
        for phase in side.get("phases", []):
            harvested = _read(work / side["side"] / f"{phase['phase']}.harvest.json")
            if harvested is not None:
                runs.sides.setdefault(side["side"], {})[phase["phase"]] = harvested
    return runs


def _e(text) -> str:
    return html.escape(str(text))


def _number(value) -> str:
    return "-" if value is None else f"{value:.7g}"


def _series(harvest: dict, path: tuple[str, ...]) -> dict[int, float]:
    node = harvest
    for key in path:
        node = node.get(key, {}) if isinstance(node, dict) else {}
    return {int(step): value for step, value in node.items()} if isinstance(node, dict) else {}


def line_chart(title: str, oracle: list[dict[int, float]], sides: dict[str, dict[int, float]]) -> str:
    """An SVG chart: oracle run 1 as a line, all oracle runs' min..max as a band, each side a line."""
    every = [v for s in [*oracle, *sides.values()] for v in s.values()]
    steps = sorted({k for s in [*oracle, *sides.values()] for k in s})
    if not every or not steps:
        return ""
    low, high = min(every), max(every)
    if high == low:
        low, high = low - (abs(low) or 1) * 1e-3, high + (abs(high) or 1) * 1e-3
    first, last = steps[0], steps[-1] if steps[-1] != steps[0] else steps[0] + 1

    def x(step):
        return PAD + (step - first) / (last - first) * (WIDTH - 2 * PAD)

    def y(value):
        return HEIGHT - PAD + (value - low) / (high - low) * (2 * PAD - HEIGHT)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{_e(title)}">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fff" stroke="#ddd"/>']
    for value in (low, high):
        parts.append(f'<text x="4" y="{y(value) + 4:.1f}" font-size="10">{value:.5g}</text>')
    for step in (first, steps[-1]):
        parts.append(f'<text x="{x(step):.1f}" y="{HEIGHT - 8}" font-size="10" text-anchor="middle">{step}</text>')
    if len(oracle) > 1:
        band_steps = [s for s in steps if all(s in run for run in oracle)]
        upper = [(x(s), y(max(run[s] for run in oracle))) for s in band_steps]
        lower = [(x(s), y(min(run[s] for run in oracle))) for s in reversed(band_steps)]
        if upper:
            points = " ".join(f"{a:.1f},{b:.1f}" for a, b in upper + lower)
            parts.append(f'<polygon class="band" points="{points}" fill="{BAND_COLOUR}" fill-opacity="0.7" '
                         f'stroke="{BAND_COLOUR}"/>')
    lines = ([("oracle run 1", oracle[0], ORACLE_COLOUR)] if oracle else []) + [
        (name, values, SIDE_COLOURS[index % len(SIDE_COLOURS)]) for index, (name, values) in enumerate(sides.items())]
    for name, values, colour in lines:
        points = " ".join(f"{x(s):.1f},{y(values[s]):.1f}" for s in sorted(values))
        dash = ' stroke-dasharray="5,3"' if name != "oracle run 1" else ""
        parts.append(f'<polyline class="series" data-name="{_e(name)}" points="{points}" fill="none" '
                     f'stroke="{colour}" stroke-width="1.6"{dash}/>')
        for s in sorted(values) if len(values) < 40 else ():
            parts.append(f'<circle cx="{x(s):.1f}" cy="{y(values[s]):.1f}" r="2" fill="{colour}"/>')
    parts.append("</svg>")
    return f'<figure><figcaption>{_e(title)}</figcaption>{"".join(parts)}</figure>'


def _legend(sides: list[str], oracle_runs: int) -> str:
    items = [f'<span><i class="swatch" style="background:{ORACLE_COLOUR}"></i>oracle run 1</span>']
    if oracle_runs > 1:
        items.append(f'<span><i class="swatch" style="background:{BAND_COLOUR}"></i>all {oracle_runs} oracle '
                     'runs (min to max)</span>')
    items += [f'<span><i class="swatch" style="background:{SIDE_COLOURS[i % len(SIDE_COLOURS)]}"></i>{_e(side)}'
              '</span>' for i, side in enumerate(sides)]
    return '<p class="legend">' + "".join(items) + "</p>"


def _curves(runs: Runs) -> str:
    if not runs.oracle:
        return "<p>No harvested oracle run in the work folder.</p>"
    training = {side: phases["training"] for side, phases in runs.sides.items() if "training" in phases}
    paths = [("scalars", tag) for tag in sorted(runs.oracle[0].get("scalars", {}))]
    paths += [("evaluation", folder, tag) for folder, tags in sorted(runs.oracle[0].get("evaluation", {}).items())
              for tag in sorted(tags)]
    charts = []
    for path in paths:
        oracle = [_series(run, path) for run in runs.oracle]
        sides = {side: _series(harvest, path) for side, harvest in training.items()}
        title = " / ".join(path[1:]) + (" (evaluation)" if path[0] == "evaluation" else "")
        charts.append(line_chart(title, [o for o in oracle if o], {k: v for k, v in sides.items() if v}))
    return _legend(list(training), len(runs.oracle)) + '<div class="charts">' + "".join(charts) + "</div>"


def _flat(harvest: dict | None, section: str) -> dict[str, float]:
    return flatten_numbers({section: (harvest or {}).get(section, {})})


def _number_table(caption: str, columns: list[tuple[str, dict[str, float]]]) -> str:
    keys = list(dict.fromkeys(k for _, values in columns for k in values))
    if not keys:
        return ""
    head = "".join(f"<th>{_e(name)}</th>" for name, _ in columns)
    rows = []
    for key in keys[:TABLE_ROWS]:
        cells = "".join(f'<td class="n">{_number(values.get(key))}</td>' for _, values in columns)
        rows.append(f"<tr><td>{_e(key)}</td>{cells}</tr>")
    more = f"<p>{len(keys) - TABLE_ROWS} more numbers in verify.json.</p>" if len(keys) > TABLE_ROWS else ""
    return f"<h3>{_e(caption)}</h3><table><tr><th>number</th>{head}</tr>{''.join(rows)}</table>{more}"


def _tables(runs: Runs) -> str:
    parts = []
    for section, what in (("evaluation", "Evaluation"), ("outputs", "Predictions and other outputs")):
        training = [(f"oracle run {i + 1}", _flat(run, section)) for i, run in enumerate(runs.oracle)]
        training += [(side, _flat(phases.get("training"), section)) for side, phases in runs.sides.items()]
        parts.append(_number_table(f"{what}: training phase (from the oracle's start state)", training))
        exact = [("oracle", _flat(runs.oracle_exact, section))] if runs.oracle_exact else []
        exact += [(side, _flat(phases.get("exact"), section)) for side, phases in runs.sides.items()
                  if "exact" in phases]
        if exact:
            parts.append(_number_table(f"{what}: exact phase (the oracle's final checkpoint)", exact))
    return "".join(parts) or "<p>No evaluation or output numbers.</p>"


def _verdicts(document: dict) -> str:
    rows = []
    for side in document.get("sides", []):
        for phase in side.get("phases", []):
            sections = phase.get("sections", {})
            compared = sum(s["compared"] for s in sections.values())
            outside = sum(s["outside"] for s in sections.values())
            limitation = phase.get("limitation")
            detail = (f"{limitation['code']}: {limitation['message']}" if limitation else
                      f"{compared} numbers, {outside} outside" if sections else "-")
            colour = STATUS_COLOUR.get(phase["status"], "#222")
            rows.append(f"<tr><td>{_e(side['side'])}</td><td>{_e(phase['phase'])}</td>"
                        f'<td style="color:{colour};font-weight:600">{_e(phase["status"])}</td><td>{_e(detail)}</td></tr>')
        if side.get("crashed"):
            rows.append(f"<tr><td>{_e(side['side'])}</td><td>run</td><td style=\"color:{STATUS_COLOUR['FAIL']}\">"
                        f"FAIL</td><td>{_e(side['crashed'])}</td></tr>")
    return ("<table><tr><th>side</th><th>phase</th><th>verdict</th><th>numbers</th></tr>" + "".join(rows)
            + "</table>")


def _worst_variables(document: dict) -> str:
    rows = []
    for side in document.get("sides", []):
        for phase in side.get("phases", []):
            for variable in phase.get("worst_variables", []):
                rows.append(f"<tr><td>{_e(side['side'])}</td><td>{_e(phase['phase'])}</td><td>{_e(variable['name'])}"
                            f'</td><td class="n">{variable["difference"]:.2e}</td><td class="n">'
                            f'{variable["allowed"]:.2e}</td></tr>')
    if not rows:
        return "<p>No variables compared.</p>"
    return ("<table><tr><th>side</th><th>phase</th><th>variable</th><th>largest relative difference</th>"
            "<th>allowed</th></tr>" + "".join(rows) + "</table>")


def render_html(document: dict, runs: Runs, findings: str = "") -> str:
    """The whole report as one HTML document."""
    program = document.get("program", {})
    verdict = {0: "reproduces the original", 1: "does not reproduce the original",
               2: "could not be verified completely"}.get(document.get("exit_code"), "?")
    title = f"verify {Path(program.get('script', '?')).name}"
    oracle = (f"oracle {document.get('oracle')} (TF {document.get('tensorflow') or '?'}; "
              f"{document.get('oracle_reason', '')}), {len(document.get('oracle_runs', []))} run(s)")
    escalated = escalation_line(document.get("escalation"))
    if escalated:
        oracle += f" ({escalated})"
    body = [f"<h1>{_e(title)}: {_e(verdict)} (exit {document.get('exit_code')})</h1>",
            f"<p>{_e(program.get('script', ''))} {_e(' '.join(program.get('args', [])))}<br>{_e(oracle)}</p>",
            "<h2>Verdicts</h2>", _verdicts(document),
            "<h2>Curves (training phase)</h2>", _curves(runs),
            "<h2>Evaluation and predictions</h2>", _tables(runs),
            "<h2>Variables that differ most</h2>", _worst_variables(document),
            "<h2>Diagnosis</h2>",
            "<pre>" + _e("\n".join(document.get("diagnosis", [])) or "nothing to report") + "</pre>",
            "<h2>Findings of the migration</h2>",
            "<pre>" + _e(findings.strip() or "no migration log (the migrated side did not run, or --migrated "
                                              "gave its own copy)") + "</pre>"]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>" + "\n".join(body) + "</body></html>\n")


def write_html(document: dict, path: Path) -> None:
    """Draw verify.json's document and the work folder's harvests into `path`."""
    work = Path(document.get("work_dir", "."))
    log = work / "migrate.log"
    findings = log.read_text(errors="replace") if log.exists() else ""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(document, load_runs(work, document), findings))

