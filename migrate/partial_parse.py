"""Parse with libcst only the statement lines a codemod can reach; keep the others as text.

Why: libcst's parse (and every walk and code generation of its tree) was the largest cost left
of a migration (bench/results/migrate.json), and a third of a real file's characters are in
statement lines that hold no name any codemod can reach: the fused pass skips them whole
(codemods/fused.py, `Codemod.reach`), yet libcst parsed them, the names' code generation walked
them and the output's code generation wrote them out. CPython's `ast` (already parsed by the
pre-filter) says which simple statement lines those are, at any depth; before libcst parses the
file each is replaced by a placeholder `()` spread over the same lines at the same indentation,
and the line's original text is spliced back byte for byte when the output is generated
(`Partial.code`). Compound statements (their headers, blocks, comments) stay as they are.

Why the result is the one of the full parse:
- every kept node has the same line and column in the partial text, and the blocks the same
  indentation, so the names (migrate/names.py, matched to libcst nodes by position), the
  findings' locations, the skipping decisions, libcst's `default_indent` and which comment lines
  a block owns (`IndentedBlock.footer`) are the same;
- a placeholder holds no name and no import, so the pass skips it whole, exactly as it skipped
  the line it stands for. Kept are the lines that hold an identifier of the module's reach (the
  names bound by imports of the watched packages, every assignment of a dotted name through an
  import (a module alias candidate), the names the codemods on for the module declare, `import`)
  and the statements code outside the pass reads by their shape (docstrings, `raise`); when a
  codemod on for the module may act on any line (`line_reach` None) the file is parsed whole;
- `Partial.code` writes each placeholder's original text, in order, where the placeholder is
  generated, and checks that as many were written as were made; otherwise the engine parses the
  whole file (never a wrong splice).
tests/migrate/test_partial_parse.py compares partial and full parsing on every fixture, legacy
example, test program and generated modules.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left

import libcst as cst
from libcst._nodes.internal import CodegenState

from migrate import prefilter
from migrate.names import ImportSurvey

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
             ast.With, ast.AsyncWith, ast.Try, ast.Match) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_STRING_VALUES = (ast.Constant, ast.JoinedStr)

# Below this share of lines replaced the splicing does not pay for itself: the file is parsed whole.
MIN_REPLACED_LINES = 0.05


def reach_names(text: str, imports: ImportSurvey, pipeline: tuple) -> frozenset[str] | None:
    """A superset of the names whose statement lines the pass visits for `pipeline`: the names
    bound by imports of the watched packages, the module aliases (migrate/names.py: a plain name
    assigned a dotted name through an import; here every such assignment), the codemods'
    `line_reach`, and `import`; None when a codemod on for the module may act on any line."""
    reach = _reach(text, imports, pipeline)
    return None if reach is None else reach[0] | reach[1]


def _reach(text: str, imports: ImportSurvey, pipeline: tuple) -> tuple[frozenset[str], frozenset[str]] | None:
    """(`reach_names` that only the watched imports bring in, the other `reach_names`); None when
    a codemod on for the module may act on any line. A line holding only names of the first kind
    is visited for its references alone (`_Claims`)."""
    names = {"import"}
    for codemod in pipeline:
        if codemod.on_for(text):
            reach = codemod.line_reach(text)
            if reach is None:
                return None
            names |= reach
    for node in imports.assignments:
        head = node.value
        while type(head) is ast.Attribute:
            head = head.value
        if type(head) is ast.Name and head.id in imports.tracked:
            names.add(node.targets[0].id)
    return frozenset(imports.watched - names), frozenset(names)


class _Claims:
    """Does a statement hold a reference that a rule of the pipeline may act on or report?

    The fused pass acts on (and reports) a reference through a watched import only when a
    codemod claims its name, a structural rule on for the module is keyed by it, or a table marks
    it unsupported (codemods/fused.py, findings_collector.py): the pre-filter's question for the
    whole file (migrate/prefilter.py), asked here for the references of one statement, through
    every import binding of the head name (libcst's scope analysis picks one per scope) and
    without the call (a lookup matches at least as often without one)."""

    def __init__(self, text: str, imports: ImportSurvey, pipeline: tuple) -> None:
        self.bindings = prefilter.import_bindings(imports.statements)
        self.acts = prefilter.reference_acts(pipeline, text)

    def held(self, statements: list[ast.stmt]) -> bool:
        bindings, acts = self.bindings, self.acts
        calls = {}   # id(func) -> call (the walk meets a call before its function)
        for statement in statements:
            for node in prefilter.nodes(statement):
                kind = type(node)
                if kind is ast.Call:
                    calls[id(node.func)] = node
                elif kind is ast.Name:
                    options = bindings.get(node.id)
                    if options is not None and any(acts(raw, None) for raw, _ in options):
                        return True
                elif kind is ast.Attribute:
                    parts = [node.attr]
                    value = node.value
                    while type(value) is ast.Attribute:
                        parts.append(value.attr)
                        value = value.value
                    if type(value) is not ast.Name:
                        continue
                    options = bindings.get(value.id)
                    if options is None:
                        continue
                    call = calls.get(id(node))
                    shape = None if call is None else prefilter.CallShape(call)
                    rest = "." + ".".join(reversed(parts))
                    if any(acts((value.id if verbatim else raw) + rest, shape) for raw, verbatim in options):
                        return True
        return False


def _lines(text: str) -> list[str]:
    """The lines of `text` with their endings, split as CPython and libcst count lines."""
    lines = _LINE.findall(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")):]


def _blocks(node: ast.stmt):
    """The statement lists of a compound statement (an `elif` is an `If` in `orelse`)."""
    body = getattr(node, "body", None)   # (a `match` has only its cases)
    if body:
        yield body
    for handler in getattr(node, "handlers", ()):
        yield handler.body
    for case in getattr(node, "cases", ()):
        yield case.body
    for name in ("orelse", "finalbody"):
        block = getattr(node, name, None)
        if block:
            yield block


def _read_by_shape(node: ast.stmt) -> bool:
    """Statements that code outside the fused pass reads whatever names they hold: a docstring
    (imports are added after the module's, a schedule's step cast after a method's:
    codemods/imports.py, keras_methods.py) and `raise` (a handler that re-raises guards nothing:
    codemods/findings_collector.py)."""
    kind = type(node)
    return kind is ast.Raise or (kind is ast.Expr and type(node.value) in _STRING_VALUES)


def _replaceable(tree: ast.Module, lines: list[str], offsets: list[int], text: str, pattern,
                 refinable: frozenset[str] = frozenset(), claims: _Claims | None = None) -> list[tuple[int, int, int]]:
    """(first line, last line, indentation length) of every simple statement line (zero-indexed
    lines; several statements when joined by `;`) that begins its line, holds nothing
    `_read_by_shape`, and holds nothing of `pattern` or (with `claims`) only names of
    `refinable` and no reference `claims` holds, in source order."""
    found = []
    replaced_compounds = []
    pending = [tree.body]
    while pending:
        block = pending.pop()
        group = None   # [first, last, indent, replaceable, statements]
        for node in block:
            if isinstance(node, _COMPOUND):
                if group is not None and group[3]:
                    found.append(group)
                group = None
                whole = _whole_compound(node, lines, offsets, text, pattern, refinable, claims) if COMPOUNDS else None
                if whole is not None:
                    replaced_compounds.append(whole)
                else:
                    pending.extend(_blocks(node))
                continue
            first, last = node.lineno - 1, node.end_lineno - 1
            if group is not None and first <= group[1]:
                group[1] = max(group[1], last)
                group[3] = group[3] and not _read_by_shape(node)
                group[4].append(node)
                continue
            if group is not None and group[3]:
                found.append(group)
            indent = node.col_offset
            prefix = lines[first].encode("utf-8")[:indent]
            group = [first, last, indent, prefix.strip(b" \t\f") == b"" and not _read_by_shape(node), [node]]
        if group is not None and group[3]:
            found.append(group)
    found.sort(key=lambda group: group[0])
    replaced = replaced_compounds
    for first, last, indent, _, statements in found:
        held = pattern.findall(text, offsets[first], offsets[last + 1])
        if not held or (claims is not None and refinable.issuperset(held) and not claims.held(statements)):
            replaced.append((first, last, indent))
    replaced.sort()
    return replaced


def _whole_compound(node: ast.stmt, lines: list[str], offsets: list[int], text: str, pattern,
                    refinable: frozenset[str], claims: _Claims | None) -> tuple[int, int, int] | None:
    """(first line, last line, indentation length) of a compound statement (decorators, header,
    every block) that holds nothing of `pattern` (or, with `claims`, only names of `refinable` and
    no reference `claims` holds) and that begins its line; else None.

    Such a statement is one placeholder: no rule acts anywhere in it (its docstrings and `raise`
    statements are read only around a node a rule acts on, and it holds none). Not when a comment
    line or a whitespace-only line (`"  \\n"`) follows it: libcst may give such a line to the
    statement's last block (its footer), which a placeholder does not have, and the line would
    then go with a next statement the pass removes."""
    first = (node.decorator_list[0].lineno if getattr(node, "decorator_list", None) else node.lineno) - 1
    last = node.end_lineno - 1
    indent = node.col_offset
    if lines[first].encode("utf-8")[:indent].strip(b" \t\f") != b"":
        return None
    following = last + 1
    while following < len(lines) and not lines[following].strip():
        if lines[following].strip("\r\n"):
            return None  # a whitespace-only line: libcst may give it to the block's footer too
        following += 1
    if following < len(lines) and lines[following].lstrip().startswith("#"):
        return None
    held = pattern.findall(text, offsets[first], offsets[last + 1])
    if held and (claims is None or not refinable.issuperset(held) or claims.held([node])):
        return None
    return first, last, indent


class Matches:
    """`pattern.findall(text, start, end)` for ranges of whole lines, from one scan of `text`: a
    name never spans lines, so the matches inside such a range are the scan's matches that start
    in it (one scan per module instead of one search per range)."""

    def __init__(self, pattern: re.Pattern, text: str) -> None:
        found = [(match.start(), match.group()) for match in pattern.finditer(text)]
        self.starts = [start for start, _ in found]
        self.names = [name for _, name in found]

    def findall(self, text: str, start: int, end: int) -> list[str]:
        return self.names[bisect_left(self.starts, start):bisect_left(self.starts, end)]


class Partial:
    """The partial libcst module of a source, and the original text of its placeholders."""

    def __init__(self, text: str, module: cst.Module, verbatim: list[str]) -> None:
        self.text = text
        self.module = module
        self._verbatim = verbatim

    def code(self, module: cst.Module) -> str | None:
        """The code of `module` (the pass's output) with each placeholder's original text, in
        order; None when the placeholders written are not as many as were made (the caller parses
        the whole file). A placeholder is the statement `()`: a kept line never is one (it holds
        a name), and no codemod writes one."""
        state = _Splice(default_indent=module.default_indent, default_newline=module.default_newline,
                        verbatim=self._verbatim)
        module._codegen(state)
        if state.written != len(self._verbatim):
            return None
        return "".join(state.tokens)


class _Splice(CodegenState):
    """Code generation that writes a placeholder's original text instead of the placeholder."""

    def __init__(self, default_indent: str, default_newline: str, verbatim: list[str]) -> None:
        super().__init__(default_indent=default_indent, default_newline=default_newline)
        self.verbatim = verbatim
        self.written = 0
        self.suppressed = False

    def add_token(self, value: str) -> None:
        if not self.suppressed:
            self.tokens.append(value)

    def add_indent_tokens(self) -> None:
        if not self.suppressed:
            self.tokens.extend(self.indent_tokens)

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        if type(node) is not cst.Expr or type(node.value) is not cst.Tuple or node.value.elements:
            return _NOTHING
        index = self.written
        self.written += 1
        if index >= len(self.verbatim):
            return _NOTHING   # more placeholders than were made: `code` gives None
        self.suppressed = True
        return _Written(self, self.verbatim[index])


class _Written:
    """Leaving a placeholder's expression: its original text goes out in its place."""
    __slots__ = ("state", "text")

    def __init__(self, state: _Splice, text: str) -> None:
        self.state = state
        self.text = text

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        self.state.suppressed = False
        self.state.tokens.append(self.text)


class _Nothing:
    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        return None


_NOTHING = _Nothing()


def split(text: str, tree: ast.Module, names: frozenset[str], refinable: frozenset[str] = frozenset(),
          claims: _Claims | None = None) -> tuple[str, list[str]] | None:
    """(`text` with every simple statement line that holds none of `names` (or, with `claims`,
    only names of `refinable` and no reference `claims` holds) replaced by a placeholder, the
    original text of each placeholder in order); None when too little would be replaced."""
    lines = _lines(text)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    pattern = re.compile(r"\b(?:%s)\b" % "|".join(map(re.escape, sorted(names, key=len, reverse=True))))
    replaced = _replaceable(tree, lines, offsets, text, Matches(pattern, text), refinable, claims)
    if sum(last - first + 1 for first, last, _ in replaced) < MIN_REPLACED_LINES * len(lines):
        return None
    pieces: list[str] = []
    verbatim: list[str] = []
    position = 0
    for first, last, indent_bytes in replaced:
        start = offsets[first]
        indent = len(lines[first].encode("utf-8")[:indent_bytes].decode("utf-8"))
        endings = [_ending(lines[i]) for i in range(first, last + 1)]
        pieces.append(text[position:start + indent])
        if first == last:
            pieces.append("()" + endings[0])
        else:
            pieces.append("(" + "".join(endings[:-1]) + ")" + endings[-1])
        position = offsets[last + 1]
        verbatim.append(text[start + indent:position - len(endings[-1])])
    pieces.append(text[position:])
    return "".join(pieces), verbatim


# False: always parse the whole file (tests compare both ways).
ENABLED = True
# False: keep every line that names a reach name (no statement-level question; tests compare both).
BY_STATEMENT = True
# False: never replace a compound statement whole (tests compare both).
COMPOUNDS = True


def parse(text: str, tree: ast.Module, pipeline: tuple, imports: ImportSurvey) -> Partial | None:
    """The partial libcst module of `text` for `pipeline` (`imports`: names.import_survey of
    `tree`); None when the whole file must be parsed (a codemod may act on any line, too little
    to replace, or libcst refuses the partial text: the full parse reports why)."""
    if not ENABLED:
        return None
    reach = _reach(text, imports, pipeline)
    if reach is None:
        return None
    refinable, others = reach
    claims = _Claims(text, imports, pipeline) if BY_STATEMENT and refinable else None
    parts = split(text, tree, refinable | others, refinable, claims)
    if parts is None:
        return None
    partial_text, verbatim = parts
    try:
        return Partial(partial_text, cst.parse_module(partial_text), verbatim)
    except cst.ParserSyntaxError:
        return None
