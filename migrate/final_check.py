"""The last pass: every TensorFlow / estimator_bridge / tf_slim name the OUTPUT still contains must exist.

The rewrites only know the names their tables list; anything else a file uses (a module that went
with TF 2, a private internal that moved, `tf.compat.v1.layers` that needs Keras 2) would be
written out silently broken. This pass reads the migrated text with `ast` (cheap), follows every
reference rooted at an import of `tensorflow`, `tensorflow_estimator`, `estimator_bridge` or `tf_slim`, and
asks `existence` about it:
- an import line that names something missing is an ERROR (MIG306) on that line: the module
  raises ImportError there and nothing in it runs, whatever later line uses the name (inside a
  function: the function fails whenever it runs; inside `try/except ImportError`: a MIG305
  warning, because the fallback now always runs);
- any other missing name is MIG305 at its first use (later uses counted in the message), unless a
  warning or error is already reported on that line (the table findings say more than "missing"),
  or it belongs to a package reported once per file (TF-Slim's MIG302 counts all its uses).
Findings are located in the ORIGINAL text: output lines are mapped back through a line diff.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections import deque
from dataclasses import dataclass

from migrate import call_bound_tf
from migrate.existence import PACKAGES, Verdict, exists
from migrate.findings import Finding, Location, Severity
from migrate.forks import fork_findings
from migrate.resolve import canonical, longest_prefix
from migrate.tables.contrib import UNSUPPORTED
from migrate.tables.hints import hint_for

ROOTS = ("tensorflow", "tensorflow_estimator", "estimator_bridge", *PACKAGES)
_DEFINES_TPU_ESTIMATOR = re.compile(r"\bclass\s+TPUEstimator\b")
TARGET = "TensorFlow 2.21"
# Findings about a whole package, given once per file at its first use (codemods/findings_collector.py):
# the package's other uses are named by it (google/dopamine atari_lib.py: 21 tf.contrib.slim uses got
# a MIG302 and a second, generic MIG305 "`tf.contrib` does not exist" at the next line).
_PACKAGES = {entry.code: key for key, entry in UNSUPPORTED.items() if entry.code in ("MIG302", "MIG303")}


@dataclass(frozen=True)
class Reference:
    """A dotted name (`tensorflow.x.y`), how the file spells it, where, and whether it is an import."""

    name: str
    spelled: str
    line: int
    column: int
    is_import: bool
    bound: str = ""   # the name an import binds (its uses are counted in the finding)
    context: str = "module"  # an import's place: module, function, guarded (try/except ImportError)


_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    """The handler catches ImportError and does not raise again (a re-raise is no fallback)."""
    if any(isinstance(node, ast.Raise) for node in ast.walk(handler)):
        return False
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, (ast.Name, ast.Attribute)) and (getattr(t, "id", None) or t.attr) in _IMPORT_ERRORS
               for t in types)


# The fields of a node that hold statements (or handlers and cases, which hold statements), in the
# order of every node type's `_fields`: an import is a statement, so no expression is looked into.
_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")


def _blocks(node: ast.AST):
    for name in _BLOCKS:
        block = getattr(node, name, None)
        if type(block) is list:
            yield block


def statements(tree: ast.Module):
    """The statements of `tree` (with the handlers and cases between them) in `ast.walk`'s
    order: `ast.walk` restricted to them keeps their order, and the walk looks at no expression
    (most of a tree's nodes; the final check's walks of every output cost more than its lookups)."""
    pending = deque([tree])
    while pending:
        node = pending.popleft()
        for block in _blocks(node):
            pending.extend(block)
        yield node


def import_contexts(tree: ast.Module) -> dict[int, str]:
    """For each import node (by id): `guarded` inside a try whose handler catches ImportError,
    else `function` inside a def (it fails when the function runs), else `module`."""
    contexts: dict[int, str] = {}

    def walk(node: ast.AST, context: str) -> None:
        for block in _blocks(node):
            for child in block:
                one(child, context)

    def one(child: ast.AST, context: str) -> None:
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            contexts[id(child)] = context
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            walk(child, "guarded" if context == "guarded" else "function")
        elif isinstance(child, ast.Try) and any(_catches_import_error(h) for h in child.handlers):
            for statement in child.body:
                if isinstance(statement, (ast.Import, ast.ImportFrom)):
                    contexts[id(statement)] = "guarded"
                else:
                    one(statement, "guarded")
            for part in child.handlers + child.orelse + child.finalbody:
                one(part, context)
        else:
            walk(child, context)

    walk(tree, "module")
    return contexts


def references(tree: ast.Module) -> list[Reference]:
    """Imports of ROOTS and attribute chains through the names they bind (module-wide bindings)."""
    aliases: dict[str, str] = {}
    found: list[Reference] = []
    contexts = import_contexts(tree)
    for node in statements(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ROOTS:
                    bound = alias.asname or alias.name.split(".")[0]
                    aliases[bound] = alias.name if alias.asname else bound
                    found.append(Reference(alias.name, f"import {alias.name}", node.lineno, node.col_offset, True,
                                           bound, contexts.get(id(node), "module")))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in ROOTS:
            for alias in node.names:
                if alias.name == "*":
                    found.append(Reference(node.module, f"from {node.module} import *", node.lineno,
                                           node.col_offset, True, "", contexts.get(id(node), "module")))
                    continue
                bound = alias.asname or alias.name
                aliases[bound] = f"{node.module}.{alias.name}"
                found.append(Reference(f"{node.module}.{alias.name}", f"from {node.module} import {alias.name}",
                                       node.lineno, node.col_offset, True, bound, contexts.get(id(node), "module")))
        elif isinstance(node, ast.Assign) and node in tree.body:
            served = _served_module(node)
            if served is not None:
                aliases[node.targets[0].id] = served
    if aliases:
        chains = _Chains(aliases)
        chains.visit(tree)
        found.extend(chains.found)
    return found


SERVED_TF1 = "estimator_bridge.compat.v1"


def _served_module(node: ast.Assign) -> str | None:
    """`tensorflow.contrib.X` for `name = estimator_bridge.compat.v1.contrib.X` (the codemod's
    stand-in for a contrib module import it could not drop), else None."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
        return None
    parts, value = [], node.value
    while isinstance(value, ast.Attribute):
        parts.append(value.attr)
        value = value.value
    if not isinstance(value, ast.Name):
        return None
    dotted = ".".join([value.id, *reversed(parts)])
    if not dotted.startswith(SERVED_TF1 + ".contrib."):
        return None
    return "tensorflow" + dotted[len(SERVED_TF1):]


def is_served(name: str) -> bool:
    return name.startswith("tensorflow.contrib.")


def _local_names(function: ast.AST) -> set[str]:
    """Names a function binds itself (parameters, assignments, loop targets, local imports)."""
    names: set[str] = set()
    arguments = function.args
    for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs + [arguments.vararg, arguments.kwarg]:
        if arg is not None:
            names.add(arg.arg)
    pending = list(function.body) if isinstance(function.body, list) else [function.body]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue  # its own scope
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.difference_update(node.names)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return names


class _Chains:
    """Attribute chains whose head is an import binding not shadowed by a function's own name.

    Visits in ast.NodeVisitor's order (fields in order, lists in order) without its per-node
    method lookup by class name: that lookup and iter_fields were most of this walk over the
    output of every migrated file."""

    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases
        self.shadowed: list[set[str]] = []
        self.found: list[Reference] = []

    def _function(self, node: ast.AST) -> None:
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(default)
        for decorator in getattr(node, "decorator_list", []):
            self.visit(decorator)
        self.shadowed.append(_local_names(node) & self.aliases.keys())
        for statement in node.body if isinstance(node.body, list) else [node.body]:
            self.visit(statement)
        self.shadowed.pop()

    def visit(self, node: ast.AST) -> None:
        kind = type(node)
        if kind is ast.Attribute:
            self.visit_Attribute(node)
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.Lambda:
            self._function(node)
        else:
            for field in node._fields:
                value = getattr(node, field, None)
                if type(value) is list:
                    for item in value:
                        if isinstance(item, ast.AST):
                            self.visit(item)
                elif isinstance(value, ast.AST):
                    self.visit(value)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        parts = []
        value: ast.AST = node
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        if isinstance(node.ctx, ast.Store):
            # `X.attr = v` creates attr: only X must exist (google/model_search phoenix.py sets
            # tf.estimator.Estimator._assert_members_are_not_overridden, which the bridge never had)
            parts = parts[1:]
        if isinstance(value, ast.Name):
            if parts and value.id in self.aliases and not any(value.id in names for names in self.shadowed):
                rest = "".join("." + p for p in reversed(parts))
                self.found.append(Reference(self.aliases[value.id] + rest, value.id + rest, node.lineno,
                                            node.col_offset, False))
            return
        self.visit(value)


def uses_of(tree: ast.Module, bound: str) -> list[int]:
    """Lines where `bound` is read (to tell the user what depends on a broken import)."""
    return _Reads(tree).lines(bound)


class _Reads:
    """The lines where each name is read in a tree, from one walk made on the first question."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self._lines: dict[str, set[int]] | None = None
        self._attributes: dict[str, set[str]] = {}

    def lines(self, name: str) -> list[int]:
        if self._lines is None:
            self._lines = {}
            for node in ast.walk(self.tree):
                if type(node) is ast.Name and type(node.ctx) is ast.Load:
                    self._lines.setdefault(node.id, set()).add(node.lineno)
                elif type(node) is ast.Attribute and type(node.value) is ast.Name:
                    self._attributes.setdefault(node.value.id, set()).add(node.attr)
        return sorted(self._lines.get(name, ()))

    def attributes(self, name: str) -> list[str]:
        """The attributes read directly on `name` (`name.X`), sorted."""
        self.lines(name)
        return sorted(self._attributes.get(name, ()))


def line_map(original: str, output: str) -> list[int]:
    """For each output line (0-based index), the 1-based original line it came from (or is nearest)."""
    before, after = original.splitlines(), output.splitlines()
    if before == after:
        return list(range(1, len(after) + 1))
    mapping = [1] * len(after)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for offset, j in enumerate(range(j1, j2)):
            if tag == "equal":
                mapping[j] = i1 + offset + 1
            else:  # replaced or inserted lines: the original line at the same place (clamped)
                mapping[j] = min(i1 + offset, max(i2 - 1, i1), max(len(before) - 1, 0)) + 1
    return mapping


def _reason(verdict: Verdict) -> str:
    """Why the name fails, naming the first part that is missing."""
    if verdict.missing == "tensorflow_estimator":
        return "`tensorflow_estimator` went with tf.estimator in TensorFlow 2.16"
    if "keras" in verdict.reason.lower():
        return f"`{_display(verdict.missing)}` is served by Keras 2 (the tf_keras package), which {TARGET} with " \
               f"Keras 3 does not provide"
    return f"`{_display(verdict.missing)}` does not exist in {_home(verdict.missing)}"


def _home(name: str) -> str:
    """Where a name was looked for: the bridge, a package the codemod writes to, or TensorFlow."""
    top = name.split(".")[0]
    return top if top == "estimator_bridge" or top in PACKAGES else TARGET


def _what(ref: Reference, verdict: Verdict) -> str:
    """`tf.a.b` does not exist in ... (the missing part named separately when it is a prefix; a name
    reached through an alias also by its full name, which the hint may not repeat)."""
    spelled = f"`{ref.spelled}`"
    if _display(ref.name) != ref.spelled:  # through an alias (`ops.IndexedSlices`): say which name it is
        spelled += f" (`{_display(ref.name)}`)"
    if verdict.missing == ref.name and "keras" not in verdict.reason.lower():
        return f"{spelled} does not exist in {_home(verdict.missing)}"
    return f"{spelled}: {_reason(verdict)}"


def _display(name: str) -> str:
    """`tf.X` for public TensorFlow names (internals keep their module path)."""
    if name.startswith("tensorflow.") and not name.startswith(("tensorflow.python.", "tensorflow.core.")):
        return "tf." + name[len("tensorflow."):]
    return name


class _LineMap:
    """`line_map(original, output)`, computed on first use (a line diff: most files need none)."""

    def __init__(self, original: str, output: str) -> None:
        self.original, self.output = original, output
        self._mapping: list[int] | None = None

    def __call__(self, line: int) -> int:
        """The original line of 1-based output line `line`."""
        if self._mapping is None:
            self._mapping = line_map(self.original, self.output)
        return self._mapping[line - 1] if 0 < line <= len(self._mapping) else line


_PARSE = object()


def check(original: str, output: str, existing: list[Finding] | tuple[Finding, ...] = (),
          tree: ast.Module | None | object = _PARSE) -> list[Finding]:
    """Findings for names in `output` that do not exist, located in `original`'s lines.

    `tree`: CPython's tree of `output` when the caller has it (None: it does not parse)."""
    if not any(root in output for root in ROOTS) and not call_bound_tf.candidate(output):
        return []
    if tree is _PARSE:
        try:
            tree = ast.parse(output)
        except (SyntaxError, ValueError):
            tree = None
    if tree is None:
        return []  # the engine reports unparsable files; nothing to resolve here
    refs = references(tree)
    # (a fork defines `class TPUEstimator` or is imported as ...tpu_estimator: no walk for other files)
    forks = fork_findings(tree) if "tpu_estimator" in output or _DEFINES_TPU_ESTIMATOR.search(output) else []
    called = call_bound_tf.findings(tree, output)  # `tf = import_tf()`: names no rewrite followed
    if not refs and not forks and not called:
        return []
    original_line = _LineMap(original, output)
    reads = _Reads(tree)
    # an info note on a line (MIG101: the file is read as TF2) says nothing about a name there
    where = {f.location.line for f in existing if f.location.cell is None and f.severity is not Severity.INFO}
    packages = tuple(_PACKAGES[f.code] for f in existing if f.code in _PACKAGES)
    findings: list[Finding] = []
    first_use: dict[str, tuple[Reference, int, list[int]]] = {}  # missing name -> (first ref, its line, more lines)
    served = {ref.spelled.split(".")[0] for ref in refs if not ref.is_import and is_served(ref.name)
              and _served_binding(tree, ref.spelled.split(".")[0])}
    broken_bindings = {ref.bound for ref in refs if ref.is_import and ref.bound and ref.context != "guarded"
                       and not exists(ref.name).exists}
    for ref in sorted(refs, key=lambda r: (r.line, r.column)):
        verdict = exists(ref.name)
        if verdict.exists:
            continue
        line = original_line(ref.line)
        if ref.is_import:
            findings.append(_import_finding(ref, verdict, line, reads))
        elif ref.spelled.split(".")[0] in broken_bindings:
            continue  # its import line carries the error, listing this use
        elif packages and _under(canonical(ref.name), packages):
            continue  # the package's one finding counts this use
        elif line not in where:
            # each name through a served contrib module is its own finding (they share `tf.contrib`)
            key = ref.name if ref.spelled.split(".")[0] in served else verdict.missing
            if key in first_use:
                first_use[key][2].append(line)
            else:
                first_use[key] = (ref, line, [])
    for line, column, message, hint in called:
        findings.append(Finding(Location(original_line(line), column), "MIG305", message, hint))
    for line, column, message, hint in forks:
        findings.append(Finding(Location(original_line(line), column),
                                "MIG307", message, hint))
    for ref, line, more in first_use.values():
        verdict = exists(ref.name)
        # Counts, not line numbers: --annotate's markers must read the same after lines shift.
        also = f" (and {len(more)} more use{'s' if len(more) > 1 else ''} in this file)" if more else ""
        if ref.spelled.split(".")[0] in served:
            findings.append(_served_finding(ref, line, also))
            continue
        findings.append(Finding(Location(line, ref.column), "MIG305",
                                f"{_what(ref, verdict)}; this line raises AttributeError when it runs{also}",
                                hint_for(ref.name) or _compat_v1_hint(verdict.missing) or
                                _hidden_op_hint(verdict.missing) or f"replace `{_display(verdict.missing)}` by its {TARGET} "
                                "equivalent, or remove the code that needs it"))
    return sorted(findings)


def _served_finding(ref: Reference, line: int, also: str) -> Finding:
    """The finding the codemod's contrib table gives the same name (a second run over the output,
    which no longer imports tf.contrib, reports it exactly as the first run did)."""
    name = canonical(ref.name)
    entry = longest_prefix(name, UNSUPPORTED).entry
    shown = "tf." + name[len("tensorflow."):]
    return Finding(Location(line, ref.column), entry.code, entry.message.format(name=shown) + also,
                   hint_for(name) or entry.hint)


def _served_binding(tree: ast.Module, name: str) -> bool:
    """`name` is bound at module level by a served-module assignment."""
    return any(isinstance(node, ast.Assign) and _served_module(node) is not None and node.targets[0].id == name
               for node in tree.body)


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _compat_v1_hint(missing: str) -> str | None:
    """`tf.compat.v1.X` when TF 2 still has the TF 1.x name there (a file read as TF 2 code keeps
    its plain TF 1 names: tf.placeholder in a notebook that also uses tf.data.AUTOTUNE)."""
    if not missing.startswith("tensorflow.") or missing.startswith(("tensorflow.compat.", "tensorflow.python.")):
        return None
    compat = "tensorflow.compat.v1." + missing[len("tensorflow."):]
    if not exists(compat).exists:
        return None
    return f"use `{_display(compat)}`: TensorFlow 2 keeps the TF 1.x name there"


def _hidden_op_hint(missing: str) -> str | None:
    """`gen_nn_ops.relu_grad` for `gen_nn_ops._relu_grad`: TF 1.x generated hidden ops with a leading
    underscore that TF 2 generates without it."""
    module, _, name = missing.rpartition(".")
    if not module.rpartition(".")[2].startswith("gen_") or not name.startswith("_") or name.startswith("__"):
        return None
    public = f"{module}.{name.lstrip('_')}"
    if not exists(public).exists:
        return None
    return f"`{module.rpartition('.')[2]}.{name.lstrip('_')}`: {TARGET} generates this op without the underscore"


def _members_hint(ref: Reference, reads: _Reads, most: int = 3) -> str:
    """For a module import without a hint of its own (`from tensorflow.contrib import image`): the
    replacement of each member the file still reads through it (`contrib_estimator.add_metrics` ->
    wrap the model_fn ...), so the import line's error names what to write instead."""
    if not ref.bound:
        return ""
    members = reads.attributes(ref.bound)
    named = [(member, hint_for(f"{ref.name}.{member}")) for member in members]
    named = [(member, hint) for member, hint in named if hint]
    if not named:
        return ""
    shown = "; ".join(f"`{ref.bound}.{member}` -> {hint}" for member, hint in named[:most])
    more = f" (and {len(named) - most} more)" if len(named) > most else ""
    return f"rewrite its uses, then delete this import: {shown}{more}"


def _import_finding(ref: Reference, verdict: Verdict, line: int, reads: _Reads) -> Finding:
    """MIG306 on an import line, naming what still uses the name it binds."""
    uses = reads.lines(ref.bound) if ref.bound else []
    hint = hint_for(ref.name) or _members_hint(ref, reads) or "rewrite or delete this import"
    if uses:  # a count, not line numbers: --annotate's markers must read the same after lines shift
        hint += f"; `{ref.bound}` is still used on {len(uses)} line{'s' if len(uses) > 1 else ''} of this file"
    else:
        hint += f"; nothing in this file uses `{ref.bound or ref.name}`: delete the line"
    if ref.context == "guarded":
        return Finding(Location(line, ref.column), "MIG305",
                       f"`{ref.spelled}` fails: {_reason(verdict)}; the `except` around it catches the ImportError, "
                       f"so its fallback now always runs", hint)
    consequence = ("so this function raises ImportError here whenever it runs" if ref.context == "function"
                   else "so importing this module raises ImportError here and none of it runs")
    return Finding(Location(line, ref.column), "MIG306", f"`{ref.spelled}` fails: {_reason(verdict)}, {consequence}",
                   hint)
