"""`--annotate`: a marker comment above every finding site, so the work left is visible in the code.

A finding at line L sits inside some logical line (a statement, possibly spanning several
physical lines, possibly after `if x:` on the same line). The marker goes on its own line just
above the first physical line of that logical line, at that line's indentation:

    # estimator-migrate: MIG301 `tf.contrib.crf.crf_log_likelihood` was removed ... (hint: ...)
    return tf.contrib.crf.crf_log_likelihood(inputs, tags, lengths)

Placing it there (never above a continuation line) keeps the file parsing: a comment line is
only ever added between two logical lines, never inside a string or after a backslash.

Only findings that ask for action are marked (warnings, errors; not `info` notes).
Idempotent: a site whose marker is already among the comment lines directly above it is not
annotated again, so a second run adds nothing. Files without findings, or skipped ones (they did
not parse), are never touched. The annotated source then goes through the migration again, so
`--annotate --in-place` writes migrated code with markers (comments survive the rewrite).
"""

from __future__ import annotations

import bisect
import io
import json
import tokenize
from typing import Callable, Iterable, Sequence

from migrate.engine import decode, encode
from migrate.findings import FileResult, Finding, Severity
# The notebook reader's own helpers: a cell's text, and the JSON dump in the file's own layout.
from migrate.notebooks import _dump as dump_notebook
from migrate.notebooks import _source_text as cell_text

MARKER = "# estimator-migrate:"
_SKIPPED_TOKENS = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING,
                   tokenize.NEWLINE, tokenize.ENDMARKER}


def marker(finding: Finding) -> str:
    """The comment for one finding (one line: newlines in messages become spaces)."""
    hint = f" (hint: {finding.hint})" if finding.hint else ""
    return " ".join(f"{MARKER} {finding.code} {finding.message}{hint}".split("\n"))


def logical_line_starts(text: str) -> list[tuple[int, int]]:
    """(line, column) of the first token of every logical line, in order; [] if it does not tokenize.

    IPython lines in notebook cells (`!pip ...`, `%time ...`) tokenize as error/operator tokens
    and still end their logical line, so cells need no masking here."""
    starts: list[tuple[int, int]] = []
    at_start = True
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NEWLINE:
                at_start = True
            elif at_start and token.type not in _SKIPPED_TOKENS:
                starts.append(token.start)
                at_start = False
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    return starts


def _already_marked(lines: Sequence[str], index: int, comment: str) -> bool:
    """Is `comment` among the comment lines directly above line `index` (0-based)?"""
    above = index - 1
    while above >= 0 and lines[above].lstrip().startswith("#"):
        if lines[above].strip() == comment:
            return True
        above -= 1
    return False


def annotate_text(text: str, sites: Iterable[tuple[int, int, Finding]]) -> str:
    """`text` with a marker above the logical line of each (line, column, finding) site.

    Sites that do not fall inside a tokenizable logical line are left unannotated."""
    starts = logical_line_starts(text)
    if not starts:
        return text
    lines = text.splitlines(keepends=True)
    inserts: dict[int, list[str]] = {}  # 0-based line index -> comments to put above it
    for line, column, finding in sorted(sites, key=lambda site: (site[0], site[1], site[2])):
        position = bisect.bisect_right(starts, (line, column)) - 1
        if position < 0:
            continue
        index = starts[position][0] - 1
        if index >= len(lines):
            continue
        comment = marker(finding)
        planned = inserts.setdefault(index, [])
        if comment not in planned and not _already_marked(lines, index, comment):
            planned.append(comment)
    if not any(inserts.values()):
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    out = []
    for index, line in enumerate(lines):
        indent = line[:len(line) - len(line.lstrip(" \t"))]
        out.extend(f"{indent}{comment}{newline}" for comment in inserts.get(index, ()))
        out.append(line)
    return "".join(out)


def _annotated_python(data: bytes, findings: Sequence[Finding]) -> bytes | None:
    decoded = decode(data)
    sites = [(f.location.line, f.location.column, f) for f in findings]
    annotated = annotate_text(decoded.text, sites)
    return None if annotated == decoded.text else encode(annotated, decoded)


def _annotated_notebook(data: bytes, findings: Sequence[Finding]) -> bytes | None:
    raw = data.decode("utf-8-sig")
    notebook = json.loads(raw)
    by_cell: dict[int, list[tuple[int, int, Finding]]] = {}
    for finding in findings:
        if finding.location.cell is not None and finding.location.cell_line is not None:
            by_cell.setdefault(finding.location.cell, []).append(
                (finding.location.cell_line, finding.location.column, finding))
    changed = False
    for index, sites in by_cell.items():
        cell = notebook["cells"][index]
        old = cell_text(cell)
        new = annotate_text(old, sites)
        if new != old:
            changed = True
            cell["source"] = new.splitlines(keepends=True) if isinstance(cell.get("source"), list) else new
    if not changed:
        return None
    out = dump_notebook(notebook, raw).encode("utf-8")
    return b"\xef\xbb\xbf" + out if data.startswith(b"\xef\xbb\xbf") else out


def annotate(result: FileResult, migrate_source: Callable[[bytes, str], FileResult]) -> FileResult:
    """`result` whose output also carries a marker at each of its findings' sites.

    Notes (`info`: a TF2 file left as it is, a graph switch already replaced) need no action and
    are not marked; warnings and errors are.
    The original bytes are annotated, then migrated again by `migrate_source` (the same
    pipeline), so markers and rewrites end up in one output. A file without findings, a skipped
    one, or one whose annotated form would not migrate cleanly is returned as it is."""
    marked = [f for f in result.findings if f.severity != Severity.INFO]
    if result.skipped or not marked:
        return result
    notebook = result.path.endswith(".ipynb")
    try:
        annotated = (_annotated_notebook if notebook else _annotated_python)(result.original, marked)
    except (ValueError, KeyError, IndexError, TypeError, UnicodeDecodeError):
        return result
    if annotated is None:
        return result
    again = migrate_source(annotated, result.path)
    if again.skipped:
        return result
    output = again.migrated if again.changed else annotated
    return FileResult(result.path, result.original, output, result.findings, result.skipped)
