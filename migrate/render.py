"""Renderings of results for people and tools: text lines, JSON and SARIF 2.1.0 (no I/O here)."""

from __future__ import annotations

import difflib
import json

from migrate.keras_target import WHY, keras_target
from typing import Sequence

from migrate import __version__
from migrate.findings import CODES, FileResult, Finding, Severity


def finding_line(path: str, finding: Finding) -> str:
    hint = f" (hint: {finding.hint})" if finding.hint else ""
    return f"{finding.location.render(path)}: {finding.code} {finding.severity.value}: {finding.message}{hint}"


def unified_diff(result: FileResult) -> str:
    """A unified diff of one changed file (text decoded leniently; notebooks diff as JSON text)."""
    before = result.original.decode("utf-8", errors="replace").splitlines(keepends=True)
    after = (result.migrated or b"").decode("utf-8", errors="replace").splitlines(keepends=True)
    shown = result.path.lstrip("/")
    lines = difflib.unified_diff(before, after, fromfile=f"a/{shown}", tofile=f"b/{shown}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


# How many files the summary lists by name (the rest are counted).
FILES_LISTED = 20


def summary(results: Sequence[FileResult], changed_verb: str) -> str:
    """One totals line, then the findings per code and the files that still need work (those with
    a warning or error: what a person must look at after the rewrite), worst first."""
    changed = sum(r.changed for r in results)
    findings = [f for r in results for f in r.findings]
    errors = sum(f.severity == Severity.ERROR for f in findings)
    skipped = sum(r.skipped for r in results)
    lines = [f"{len(results)} file(s) scanned, {changed} {changed_verb}, {len(findings)} finding(s) "
             f"({errors} error(s)), {skipped} skipped",
             f"Keras target: {WHY[keras_target()]}"]
    if findings:
        counts: dict[str, int] = {}
        for finding in findings:
            counts[finding.code] = counts.get(finding.code, 0) + 1
        lines.append("findings by code:")
        lines.extend(f"  {code} {CODES[code].severity.value:<7} {n:>5}  {CODES[code].title}"
                     for code, n in sorted(counts.items()))
    work = []
    for result in results:
        e = sum(f.severity == Severity.ERROR for f in result.findings)
        w = sum(f.severity == Severity.WARNING for f in result.findings)
        if e or w:
            work.append((-e, -w, result.path, e, w))
    if work:
        lines.append(f"{len(work)} file(s) still need work (errors first):")
        for _, _, path, e, w in sorted(work)[:FILES_LISTED]:
            lines.append(f"  {path}: {e} error(s), {w} warning(s)")
        if len(work) > FILES_LISTED:
            lines.append(f"  ... and {len(work) - FILES_LISTED} more (--format json lists every finding)")
    return "\n".join(lines)


def as_text(results: Sequence[FileResult], changed_verb: str) -> str:
    lines = []
    for result in results:
        if result.changed:
            lines.append(f"{result.path}: {changed_verb}")
        lines.extend(finding_line(result.path, f) for f in result.findings)
    lines.append(summary(results, changed_verb))
    return "\n".join(lines) + "\n"


def as_json(results: Sequence[FileResult]) -> str:
    files = []
    for result in results:
        files.append({
            "path": result.path,
            "changed": result.changed,
            "skipped": result.skipped,
            "findings": [{
                "code": f.code, "severity": f.severity.value, "line": f.location.line,
                "column": f.location.column + 1, "cell": None if f.location.cell is None else f.location.cell + 1,
                "cell_line": f.location.cell_line, "location": f.location.render(result.path),
                "message": f.message, "hint": f.hint,
            } for f in result.findings],
        })
    return json.dumps({"tool": "estimator-migrate", "version": __version__, "keras_target": keras_target(),
                       "keras_target_why": WHY[keras_target()], "files": files}, indent=2) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def as_sarif(results: Sequence[FileResult]) -> str:
    rules = [{"id": c.code, "shortDescription": {"text": c.title},
              "defaultConfiguration": {"level": _SARIF_LEVEL[c.severity]}} for c in CODES.values()]
    sarif_results = []
    for result in results:
        for f in result.findings:
            region = {"startLine": f.location.cell_line if f.location.cell is not None else f.location.line}
            if f.location.cell is None:
                region["startColumn"] = f.location.column + 1
            entry = {
                "ruleId": f.code, "level": _SARIF_LEVEL[f.severity],
                "message": {"text": f.message + (f" Hint: {f.hint}" if f.hint else "")},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": result.path}, "region": region}}],
            }
            if f.location.cell is not None:
                entry["properties"] = {"cell": f.location.cell + 1}
            sarif_results.append(entry)
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "estimator-migrate", "version": __version__, "rules": rules}},
                  "results": sarif_results,
                  "properties": {"keras_target": keras_target(), "keras_target_why": WHY[keras_target()]}}],
    }
    return json.dumps(document, indent=2) + "\n"


RENDERERS = {"text": None, "json": as_json, "sarif": as_sarif}
