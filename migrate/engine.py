"""One source file through the pipeline: decode, parse, report, rewrite to a fixed point, verify, encode.

Safety rules live here: a file that does not parse (Python 2 included) is reported and skipped;
unchanged files keep their exact bytes (BOM, encoding cookie, CRLF, trailing whitespace); output
that does not compile (or, for input CPython does not compile, parse with libcst) is never returned.
"""

from __future__ import annotations

import ast
import codecs
import io
import re
import tokenize
from dataclasses import dataclass

import libcst as cst

from migrate import partial_parse
from migrate.codemods import PIPELINE, fused
from migrate.codemods.base import WATCHED_PACKAGES, PassContext
from migrate.codemods.fused import fuse
from migrate.codemods.keras2_target import KERAS2_CODEMOD, KERAS3_ONLY
from migrate.codemods.findings_collector import FindingCollector
from migrate.environment_checks import environment_findings
from migrate.final_check import check as check_names
from migrate.forks import within_fork
from migrate.keras_target import keras_target
from migrate.findings import FileResult, Finding, Location
from migrate.names import ImportSurvey, import_survey
from migrate.prefilter import nothing_to_do
from migrate.star_imports import bound_text, star_bindings, unbound_text
from migrate.tables.tf2_calls import TF2_ONLY_CALLS
from migrate.tables.tf2_markers import TF2_ONLY

# One fused pass reaches the fixed point by construction (every target is spelled so that no
# table claims it again); `verify=True` runs passes until nothing changes and fails loudly
# if the first pass did not already get there (the fixture tests use it).
MAX_PASSES = 3
# TF2 files (detected by names TF 1.15 never had) keep their plain tf.X names.
TF1_PIPELINE = PIPELINE
TF2_PIPELINE = tuple(c for c in PIPELINE if not c.tf1_only)
_REWRITES = {TF1_PIPELINE: fuse(TF1_PIPELINE), TF2_PIPELINE: fuse(TF2_PIPELINE)}


def rewrite_for(pipeline: tuple):
    """The fused pass over `pipeline` (any tuple of registry records: tests run one codemod alone)."""
    rewrite = _REWRITES.get(pipeline)
    if rewrite is None:
        rewrite = _REWRITES[pipeline] = fuse(pipeline)
    return rewrite
_TF_ALIAS = re.compile(r"^[ \t]*import[ \t]+tensorflow(?:[ \t]+as[ \t]+(\w+))?[ \t]*(?:#.*)?$", re.MULTILINE)

# Cheap pre-filter: a module that mentions none of these cannot match any table.
_TRIGGER = re.compile(rb"tensorflow|tensor2tensor|keras")

_PYTHON2 = re.compile(
    r"^\s*(print\s+[^\s(=,)][^=]*$|exec\s+[\"'\w]|except\s+[\w.]+\s*,\s*\w+\s*:)|\bur[\"']|`\w+`|\b0[0-7]+\b|\d+L\b",
    re.MULTILINE,
)


# A web page saved as .py (GitHub's page of a file instead of its raw text): not Python 2.
_MARKUP = re.compile(r"\A\s*(?:<!--|<(?:!doctype\s+html|html|\?xml|head|body|svg)(?=[\s>/]))", re.IGNORECASE)


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    bom: bool


class SkipFile(Exception):
    """The file cannot be migrated; carries the finding that says why."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def decode(data: bytes) -> Decoded:
    """Text of a Python source, with what is needed to encode it back byte for byte."""
    bom = data.startswith(codecs.BOM_UTF8)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data[len(codecs.BOM_UTF8) if bom else 0:].decode("utf-8" if encoding == "utf-8-sig" else encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        raise SkipFile(Finding(Location(1, 0), "MIG003", f"cannot decode the file: {error}",
                               "save it as UTF-8 or declare its encoding in a `# -*- coding: ... -*-` line"))
    return Decoded(text, "utf-8" if encoding == "utf-8-sig" else encoding, bom)


def encode(text: str, decoded: Decoded) -> bytes:
    return (codecs.BOM_UTF8 if decoded.bom else b"") + text.encode(decoded.encoding)


def parse(text: str) -> cst.Module:
    """Parse Python 3 source; a failure becomes MIG002 (looks like Python 2) or MIG001."""
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        line, column = error.raw_line, error.raw_column
        if _MARKUP.match(text):
            raise SkipFile(Finding(Location(1, 0), "MIG001",
                                   "not Python source: an HTML/XML page saved under a .py name; file skipped",
                                   "save the raw file instead of the web page showing it (on GitHub: the Raw "
                                   "button, raw.githubusercontent.com), then migrate again"))
        if _PYTHON2.search(text):
            raise SkipFile(Finding(Location(line, column), "MIG002", "Python 2 source; file skipped",
                                   "convert it to Python 3 first (e.g. with `pyupgrade` or `2to3`), then migrate"))
        raise SkipFile(Finding(Location(line, column), "MIG001",
                               f"does not parse as Python 3: {error.message}; file skipped",
                               "fix the syntax error, then run migrate again"))


_UNPARSED = object()


def python_tree(text: str) -> ast.Module | None:
    """CPython's tree of `text`, or None when CPython does not parse it."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def output_tree(text: str) -> ast.Module | None:
    """CPython's tree of the migrated text (None: it does not compile); the final check reads it too."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def tf2_marker(text: str, tree: ast.Module | None | object = _UNPARSED) -> tuple[str, int] | None:
    """(name, line) of the first TF2-only name used through `import tensorflow [as X]`, else None.

    Names inside an `if` on the TensorFlow version (`if tf.__version__ < '2'`, `if
    LooseVersion(tf.__version__) >= ...`, `tf.version.VERSION`) do not count: such a file runs on
    TF 1.x too, and its code outside the gate is TF 1.x code (tensorflow/privacy's optimizers).
    `tree`: CPython's tree of `text` (parsed here when needed and not given)."""
    aliases = {match.group(1) or "tensorflow" for match in _TF_ALIAS.finditer(text)}
    if not aliases:
        return None
    pattern = re.compile(r"\b(?:%s)((?:\.\w+)+)" % "|".join(map(re.escape, sorted(aliases))))
    gated = code_lines = None
    for match in pattern.finditer(text):
        parts = match.group(1)[1:].split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in TF2_ONLY:
                line = text.count("\n", 0, match.start()) + 1
                if gated is None:
                    tree = python_tree(text) if tree is _UNPARSED else tree
                    gated, code_lines = _version_gated_lines(tree), _alias_lines(tree, aliases)
                if code_lines is not None and line not in code_lines:
                    break  # a comment or a string (an --annotate marker's hint naming tf.distribute...)
                if not any(first <= line <= last for first, last in gated):
                    return "tf." + ".".join(parts[:end]), line
                break
    if any(f"{name}(" in text for name in TF2_ONLY_CALLS):
        return _tf2_call(python_tree(text) if tree is _UNPARSED else tree, aliases)
    return None


def _alias_lines(tree: ast.Module | None, aliases: set[str]) -> set[int] | None:
    """Lines where code reads an attribute of a TensorFlow alias (`tf.X`), or None without a tree.

    The name scan above reads text: a TF2-only name in a comment or a string (`# use
    tf.distribute.TPUStrategy`, or an --annotate marker whose hint names it) made a TF 1.x file TF 2
    code, so its TF1 names were no longer rewritten to tf.compat.v1 (and --annotate was not
    idempotent: the second run read its own markers)."""
    if tree is None:
        return None
    return {node.value.lineno for node in ast.walk(tree)
            if type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id in aliases}


def _tf2_call(tree: ast.Module | None, aliases: set[str]) -> tuple[str, int] | None:
    """(`tf.name(...)`, line) of the first call with an argument shape only TF 2.x accepts
    (tables/tf2_calls.py), outside a version gate, else None."""
    if tree is None:
        return None
    gated = _version_gated_lines(tree)
    for node in ast.walk(tree):
        if type(node) is not ast.Call:
            continue
        dotted, value = [], node.func
        while type(value) is ast.Attribute:
            dotted.append(value.attr)
            value = value.value
        if type(value) is not ast.Name or value.id not in aliases:
            continue
        name = ".".join(reversed(dotted))
        name = name[len("compat.v2."):] if name.startswith("compat.v2.") else name
        shape = TF2_ONLY_CALLS.get(name)
        if shape is None or len(node.args) + len(node.keywords) > shape.max_arguments \
                or any(k.arg is None or k.arg in shape.tf1_keywords for k in node.keywords) \
                or any(type(a) is ast.Starred for a in node.args):
            continue
        if not any(first <= node.lineno <= last for first, last in gated):
            return f"tf.{name}(...) with TF 2.x's arguments", node.lineno
    return None


_VERSION_ATTRIBUTES = frozenset({"__version__", "VERSION"})


def _version_gated_lines(tree: ast.Module | None) -> list[tuple[int, int]]:
    """(first, last) lines of every `if` statement whose test reads a version attribute."""
    if tree is None:
        return []
    return [(node.lineno, node.end_lineno) for node in ast.walk(tree) if type(node) is ast.If
            and any(type(part) is ast.Attribute and part.attr in _VERSION_ATTRIBUTES for part in ast.walk(node.test))]


class NotIdempotent(AssertionError):
    """A second pass changed the output of the first: a bug in a codemod or a table."""


def transform(module: cst.Module, filename: str, pipeline: tuple = TF1_PIPELINE, verify: bool = False,
              source: str | None = None, tree: ast.Module | None = None,
              imports: ImportSurvey | None = None) -> tuple[cst.Module, list[Finding]]:
    """Run the pipeline (to its fixed point when `verify`); findings come from the first pass.

    `source`, `tree` and `imports`: the module's text, CPython tree and its names.import_survey
    when the caller has them (not re-made)."""
    collector = FindingCollector(pipeline)
    rewrite = rewrite_for(pipeline)
    scratch = {} if source is None else {"source": source, "ast": tree, "imports": imports}
    context = PassContext(filename=filename, scratch=scratch)
    original = module
    running = rewrite(context, collector)
    first = module = running.transform_module(module)
    if verify:
        for _ in range(MAX_PASSES - 1):
            before = module.code
            module = rewrite(PassContext(filename=filename), None).transform_module(cst.parse_module(before))
            if module.code == before:
                break
        if module.code != first.code:
            raise NotIdempotent(f"{filename}: a second pass changed the output of the first")
    return first, collector.findings(original, running.names.every_start if running.names is not None else None)


def _marker_findings(findings: list[Finding], marker: tuple[str, int] | None) -> list[Finding]:
    """`findings` plus MIG101 when the file uses a TF2-only name (`marker`)."""
    if not marker:
        return findings
    return sorted(findings + [Finding(Location(marker[1], 0), "MIG101", f"uses {marker[0]}, which TF 1.x did not "
                                      "have: plain tf.X names are read as TF2 and left as they are",
                                      "spell TF1-only calls tf.compat.v1.X by hand where this file needs them")])


def migrate_text(text: str, filename: str = "<string>", verify: bool = False,
                 prefilter: bool = True) -> tuple[str, list[Finding]]:
    """(migrated text, findings) for Python source text; raises SkipFile when it cannot be done.

    `prefilter=False` always runs the libcst pipeline (tests compare both paths)."""
    tree = python_tree(text)
    bindings = tuple(star_bindings(tree, filename)) if "import *" in text else ()
    if not bindings:
        return _migrate(Surveyed(text, tf2_marker(text, tree), tree), filename, verify, prefilter)
    text = bound_text(text, list(bindings))
    tree = python_tree(text)
    migrated, findings = _migrate(Surveyed(text, tf2_marker(text, tree), tree, bindings), filename, verify, prefilter)
    return _unbound(migrated, bindings), findings


def _unbound(migrated: str, bindings: tuple) -> str:
    """The output without the imports a star import stood for (star_imports.py)."""
    out = unbound_text(migrated, list(bindings))
    if out is None:
        raise SkipFile(Finding(Location(1, 0), "MIG004", "the rewrite changed the import a star import stood for",
                               "please report this file; it was left unchanged"))
    return out


@dataclass(frozen=True)
class Surveyed:
    """A source with what the pre-filter computed (the TF2 marker, CPython's tree), so that the
    full pipeline does not compute it again."""

    text: str
    marker: tuple[str, int] | None
    tree: ast.Module | None
    # imports appended to star import lines, which bind names the file uses (star_imports.py)
    star_bindings: tuple = ()

    @property
    def pipeline(self) -> tuple:
        return pipeline_for(bool(self.marker), keras_target())


_KERAS2_PIPELINES = {marker: tuple(sorted(
    [c for c in (TF2_PIPELINE if marker else TF1_PIPELINE) if c.name not in KERAS3_ONLY] + [KERAS2_CODEMOD],
    key=lambda c: (c.order, c.name))) for marker in (False, True)}


def pipeline_for(tf2: bool, keras: int = 3) -> tuple:
    """The codemods for a TF2 (or TF1) file and a Keras target (migrate/keras_target.py)."""
    if keras == 2:
        return _KERAS2_PIPELINES[tf2]
    return TF2_PIPELINE if tf2 else TF1_PIPELINE


def _migrate(source: Surveyed, filename: str, verify: bool = False, prefilter: bool = True) -> tuple[str, list[Finding]]:
    text, marker, tree, pipeline = source.text, source.marker, source.tree, source.pipeline
    if prefilter and nothing_to_do(text, pipeline, tree):
        return text, _marker_findings(check_names(text, text, tree=tree) + environment_findings(text, text, tree), marker)
    # Only the statement lines a codemod can reach go through libcst (migrate/partial_parse.py);
    # the whole file when that cannot be done (or the fixed point is verified: it re-parses the code).
    imports = import_survey(tree, WATCHED_PACKAGES) if tree is not None else None
    partial = partial_parse.parse(text, tree, pipeline, imports) if tree is not None and fused.SKIP_LINES \
        and not verify else None
    migrated = None
    if partial is not None:
        parsed = partial.module
        module, findings = transform(parsed, filename, pipeline, verify, text, tree, imports)
        migrated = partial.code(module)
    if migrated is None:
        parsed = parse(text)
        module, findings = transform(parsed, filename, pipeline, verify, text, tree, imports)
        migrated = module.code
    findings = _marker_findings(findings, marker)
    if migrated != text and module.deep_equals(parsed):
        # Nothing was rewritten; libcst's round trip alone lost bytes (a whitespace-only last line).
        migrated = text
    migrated_tree = tree
    if migrated != text:
        # Input that CPython compiles must come out compiling (CPython's parser, ~20x cheaper
        # than libcst's); input only libcst parses must come out parsing with libcst.
        migrated_tree = output_tree(migrated) if tree is not None else python_tree(migrated)
        if tree is not None:
            if migrated_tree is None:
                raise SkipFile(Finding(Location(1, 0), "MIG004", "the rewrite did not compile",
                                       "please report this file; it was left unchanged"))
        else:
            try:
                cst.parse_module(migrated)
            except cst.ParserSyntaxError as error:
                raise SkipFile(Finding(Location(1, 0), "MIG004", f"the rewrite did not parse ({error.message})",
                                       "please report this file; it was left unchanged"))
    # The final pass: names the output still holds must exist (a file never goes out silently broken).
    return migrated, sorted(within_fork(findings + check_names(text, migrated, findings, tree=migrated_tree)
                                        + environment_findings(text, migrated, migrated_tree)))


def survey(data: bytes, path: str) -> FileResult | tuple[Decoded, Surveyed] | None:
    """The result of a Python file when it is known without libcst (no TensorFlow word at all, or
    the pre-filter clears it); else what the full pipeline needs of the survey (None: the file
    does not decode, the full path reports it)."""
    star = b"import *" in data
    if not star and not _TRIGGER.search(data):
        return FileResult(path, data, None)
    try:
        decoded = decode(data)
    except SkipFile:
        return None
    text = decoded.text
    tree = python_tree(text)
    bindings = tuple(star_bindings(tree, path)) if star else ()
    if bindings:
        text = bound_text(text, list(bindings))
        tree = python_tree(text)
    elif not _TRIGGER.search(data):
        return FileResult(path, data, None)
    source = Surveyed(text, tf2_marker(text, tree), tree, bindings)
    if nothing_to_do(text, source.pipeline, source.tree):
        if source.tree is None:
            return decoded, source  # the full path reports why
        return FileResult(path, data, None, tuple(_marker_findings(
            check_names(text, text, tree=source.tree) + environment_findings(text, text, source.tree), source.marker)))
    return decoded, source


def quick_result(data: bytes, path: str) -> FileResult | None:
    """The result of a Python file when it is known without libcst, else None (see `survey`)."""
    surveyed = survey(data, path)
    return surveyed if isinstance(surveyed, FileResult) else None


def migrate_bytes(data: bytes, path: str, surveyed: tuple[Decoded, Surveyed] | None = None) -> FileResult:
    """Migrate one Python file's bytes; never raises for bad input (the result carries findings).

    `surveyed`: what `survey` returned for these bytes when the caller already asked it."""
    if surveyed is None:
        surveyed = survey(data, path)
        if isinstance(surveyed, FileResult):
            return surveyed
    try:
        if surveyed is None:
            decoded = decode(data)  # raises SkipFile with the reason
            tree = python_tree(decoded.text)
            surveyed = decoded, Surveyed(decoded.text, tf2_marker(decoded.text, tree), tree)
        decoded, source = surveyed
        migrated, findings = _migrate(source, path, prefilter=False)
        if source.star_bindings:
            migrated = _unbound(migrated, source.star_bindings)
    except SkipFile as skip:
        return FileResult(path, data, None, (skip.finding,), skipped=True)
    new = encode(migrated, decoded) if migrated != decoded.text else None
    return FileResult(path, data, new, tuple(findings))
