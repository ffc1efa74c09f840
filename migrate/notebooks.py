"""Notebooks: every code cell analysed as one module, magics masked, only changed cells written back.

The code cells are joined with boundary comments, IPython syntax (`%magic`, `!shell`, `x = !cmd`,
`obj?`) is masked as placeholder import lines that keep the indentation (so masked lines inside blocks still
parse) and restored afterwards. Cells run by a non-Python cell magic (`%%bash`, `%%writefile`) are
left out. A cell that does not parse is reported at its own line and left as it is; the other
cells are migrated without it. The JSON is written back with the file's own indentation and key order; outputs and
metadata are untouched.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass

import libcst as cst

from migrate.engine import SkipFile, migrate_text
from migrate.findings import FileResult, Finding, Location

_BOUNDARY = "# migrate-cell-boundary {index}"
_BOUNDARY_LINE = re.compile(r"^# migrate-cell-boundary (\d+)$")
# An import statement, so that imports added by the codemods go after a leading `!pip install`.
_MASK = "import migrate_masked_{index}"
_MASK_LINE = re.compile(r"^(\s*)import migrate_masked_(\d+)$")
_IPYTHON_LINE = re.compile(r"^(\s*)(?:[!%]|\w+\s*=\s*[!%]|[\w.]+\?\??\s*$|\?)")
_PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun", "%%debug")


@dataclass
class _Cell:
    index: int           # position in nb["cells"]
    text: str
    masked: list[str]    # original lines replaced by mask lines, in order
    header: str = ""     # a Python cell magic line kept out of the module


def _mask(text: str, masked: list[str], start: int) -> str:
    lines = text.split("\n")
    out = []
    first = True
    continued = None  # the indentation of a masked line that ends with a backslash
    for line in lines:
        match = _IPYTHON_LINE.match(line)
        if continued is not None or (match and not line.lstrip().startswith("#")):
            # IPython drops the indentation of a cell's first line (its leading_indent transform).
            # A `!cmd \` or `%magic \` line goes on with the next line (IPython joins them before
            # running the command: `! gcloud compute tpus create ... \` then `  --zone ...`): those
            # lines are masked too, at the first line's indentation.
            indent = continued if continued is not None else "" if first else match.group(1)
            out.append(indent + _MASK.format(index=start + len(masked)))
            masked.append(line)
            continued = indent if line.endswith("\\") else None
        else:
            out.append(line)
        first = first and not line.strip()
    return "\n".join(out)


def _source_text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _detect_indent(raw: str) -> int | None:
    match = re.search(r"^\{\s*\n( +)\"", raw)
    return len(match.group(1)) if match else None


def _dump(notebook: dict, raw: str) -> str:
    indent = _detect_indent(raw)
    text = json.dumps(notebook, indent=indent, ensure_ascii="\\u" in raw and not re.search(r"[^\x00-\x7f]", raw),
                      separators=(",", ": ") if indent is not None else (",", ":"))
    return text + ("\n" if raw.endswith("\n") else "")


def migrate_notebook(data: bytes, path: str) -> FileResult:
    """Migrate an .ipynb file's bytes; findings are located as `cell N:line`."""
    try:
        raw = data.decode("utf-8-sig")
        notebook = json.loads(raw)
        cells = notebook["cells"]
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
        return FileResult(path, data, None, (Finding(Location(1, 0), "MIG005", f"not a readable notebook: {error}",
                                                     "open and re-save it with Jupyter"),), skipped=True)
    if "tensorflow" not in raw and "keras" not in raw:
        return FileResult(path, data, None)
    built = _python_module(notebook)
    if built is None:
        return FileResult(path, data, None)
    module, chosen, locate = built

    broken: list[Finding] = []
    try:
        migrated, findings = migrate_text(module, path)
    except SkipFile as skip:
        unparsed = _unparsed_cells(chosen) if skip.finding.code in ("MIG001", "MIG002") else {}
        if not unparsed or len(unparsed) == len(chosen):
            where = skip.finding.location
            return FileResult(path, data, None, (Finding(locate(where.line, where.column), skip.finding.code,
                                                         skip.finding.message, skip.finding.hint),), skipped=True)
        # One broken cell (a typo, an unfinished f-string) does not stop the others: they are
        # migrated as a module without it, and it is reported at its own cell, left as it is.
        broken = list(unparsed.values())
        chosen = [entry for entry in chosen if entry.index not in unparsed]
        module, locate = _joined(chosen)
        try:
            migrated, findings = migrate_text(module, path)
        except SkipFile as skip:
            where = skip.finding.location
            return FileResult(path, data, None, tuple(broken) + (Finding(
                locate(where.line, where.column), skip.finding.code, skip.finding.message,
                skip.finding.hint),), skipped=True)
    findings = broken + [Finding(locate(f.location.line, f.location.column), f.code, f.message, f.hint)
                         for f in findings]
    if migrated == module:
        return FileResult(path, data, None, tuple(findings))

    # Split back into cells and unmask.
    originals = [line for entry in chosen for line in entry.masked]
    texts: dict[int, list[str]] = {}
    current = None
    for line in migrated.split("\n"):
        boundary = _BOUNDARY_LINE.match(line)
        if boundary:
            current = int(boundary.group(1))
            texts[current] = []
            continue
        mask = _MASK_LINE.match(line)
        if mask:
            line = originals[int(mask.group(2))]
        texts.setdefault(current if current is not None else chosen[0].index, []).append(line)
    changed = False
    for entry in chosen:
        lines = texts.get(entry.index, [])
        new_text = entry.header + "\n".join(lines)
        old_text = _source_text(cells[entry.index])
        # The module added one "\n" after the last cell; cells keep their own trailing newline.
        if entry is chosen[-1] and new_text.endswith("\n") and not old_text.endswith("\n"):
            new_text = new_text[:-1]
        elif new_text.endswith("\n") and not old_text.endswith("\n"):
            new_text = new_text[:-1]
        if new_text == old_text:
            continue
        changed = True
        source = cells[entry.index].get("source", "")
        cells[entry.index]["source"] = new_text.splitlines(keepends=True) if isinstance(source, list) else new_text
    if not changed:
        return FileResult(path, data, None, tuple(findings))
    out = _dump(notebook, raw).encode("utf-8")
    if data.startswith(b"\xef\xbb\xbf"):
        out = b"\xef\xbb\xbf" + out
    return FileResult(path, data, out, tuple(findings))


def _python_module(notebook: dict):
    """The notebook's Python code cells as one module: (text, cells, locate(line, column) ->
    Location in `cell N:line`), or None when it has no Python code cells."""
    is_python = notebook.get("metadata", {}).get("kernelspec", {}).get("language", "python") == "python"
    if not is_python:
        return None
    chosen: list[_Cell] = []
    masked_total = 0
    for index, cell in enumerate(notebook["cells"]):
        if cell.get("cell_type") != "code":
            continue
        text = _source_text(cell)
        header = ""
        if text.startswith("%%"):
            first, _, rest = text.partition("\n")
            if not first.split()[0] in _PYTHON_CELL_MAGICS:
                continue  # %%bash, %%writefile, %%html ...: not Python
            header, text = first + "\n", rest
        entry = _Cell(index, "", [], header)
        entry.text = _mask(text, entry.masked, masked_total)
        masked_total += len(entry.masked)
        chosen.append(entry)
    if not chosen:
        return None
    module, locate = _joined(chosen)
    return module, chosen, locate


def _joined(chosen: list[_Cell]):
    """The cells as one module with boundary comments: (text, locate(line, column) -> Location)."""
    module_lines: list[str] = []
    starts: list[int] = []  # 1-based line of each cell's first line in the module
    for entry in chosen:
        module_lines.append(_BOUNDARY.format(index=entry.index))
        starts.append(len(module_lines) + 1)
        module_lines.extend(entry.text.split("\n"))
    module = "\n".join(module_lines) + "\n"

    def locate(line: int, column: int) -> Location:
        position = max(i for i, start in enumerate(starts) if start <= max(line, starts[0]))
        offset = 1 if chosen[position].header else 0
        return Location(line, column, cell=chosen[position].index, cell_line=line - starts[position] + 1 + offset)

    return module, locate


def _unparsed_cells(chosen: list[_Cell]) -> dict[int, Finding]:
    """{cell index: MIG001 at the cell's own line} for each cell that parses neither with CPython
    nor with libcst (what the whole module's parse reported was somewhere in the joined text)."""
    unparsed = {}
    for entry in chosen:
        try:
            ast.parse(entry.text)
            continue
        except (SyntaxError, ValueError) as error:
            line, column, message = error.lineno or 1, max((error.offset or 1) - 1, 0), error.msg
        try:
            cst.parse_module(entry.text)
            continue
        except cst.ParserSyntaxError:
            pass
        offset = 1 if entry.header else 0
        unparsed[entry.index] = Finding(
            Location(line, column, cell=entry.index, cell_line=line + offset), "MIG001",
            f"cell does not parse as Python 3: {message}; cell left unchanged, the other cells migrated",
            "fix the syntax error in this cell, then run migrate again")
    return unparsed


def readiness_module(data: bytes):
    """(module text, locate) of a notebook's Python cells for analyses that only read code
    (the TPU readiness report), or None for an unreadable notebook or one without Python cells."""
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
        notebook["cells"]
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        return None
    built = _python_module(notebook)
    return None if built is None else (built[0], built[2])
