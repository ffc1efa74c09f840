"""Findings: what will not be rewritten, reported at the ORIGINAL line and column.

`FindingCollector` asks the same lookups the codemods use (so it can never disagree with them) and
reports references no codemod claims but a table marks unsupported, calls left alone because of a
keyword without equivalent, and names reached through several imports that disagree. The engine
runs it inside the first rewrite pass (which sees the original module).
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from migrate.codemods.base import dotted_name, unsupported_keywords
from migrate.codemods.registry import Codemod, unsupported_table
from migrate.findings import Finding, Location
from migrate.positions import starts
from migrate.tables.hints import argument_hint, hint_for
from migrate.resolve import canonical, longest_prefix
from migrate.tables.entries import Unsupported


def _argument(name: str) -> str:
    """How a blocked argument is named in a finding: `family=`, or `*args` for one with no place."""
    return f"`{name}`" if name.startswith("*") else f"`{name}=`"


def display(name: str) -> str:
    """`tf.X` for `tensorflow.X` (how users spell it)."""
    return "tf." + name[len("tensorflow."):] if name.startswith("tensorflow.") else name


class FindingCollector:
    """Accumulates findings; `pipeline` are the codemods whose claims decide what is rewritten and
    whose `unsupported` tables what is reported."""

    def __init__(self, pipeline: Sequence[Codemod]) -> None:
        self.pipeline = tuple(pipeline)
        self.unsupported = unsupported_table(self.pipeline)
        self.pending: list[tuple[cst.CSTNode, str, str, str]] = []  # (node, code, message, hint)
        self.handled: set[int] = set()   # func nodes a structural codemod rewrites

    def report(self, node: cst.CSTNode, code: str, message: str, hint: str) -> None:
        self.pending.append((node, code, message, hint))

    def findings(self, module: cst.Module, known: dict[int, tuple[int, int]] | None = None) -> list[Finding]:
        """The findings, located in `module` (the tree the pass visited); one per line, code, message.

        `known`: starts of `module`'s nodes already computed (names.ModuleNames.every_start); only
        the nodes it lacks cost a code generation."""
        if not self.pending:
            return []
        known = known or {}
        missing = [node for node, _, _, _ in self.pending if id(node) not in known]
        located = {**known, **starts(module, missing)} if missing else known
        guarded = _attribute_guarded(module) if any(code in GUARDABLE for _, code, _, _ in self.pending) else set()
        found, seen = [], set()
        for node, code, message, hint in self.pending:
            if code in GUARDABLE and id(node) in guarded:
                message += GUARDED_NOTE
            line, column = located[id(node)]
            if (line, code, message) not in seen:
                seen.add((line, code, message))
                found.append(Finding(Location(line, column), code, message, hint))
        return once_per_package(sorted(found))

    def claim(self, canonical_name: str, raw: str, call: cst.Call | None):
        for codemod in self.pipeline:
            match = codemod.claim(canonical_name, raw, call)
            if match is not None:
                return match
        return None

    def check(self, node: cst.CSTNode, raw_names: set[str], call: cst.Call | None) -> None:
        if not raw_names or id(node) in self.handled:
            return
        verdicts = {}
        for raw in raw_names:
            name = canonical(raw)
            verdicts[raw] = (name, self.claim(name, raw, call), longest_prefix(name, self.unsupported))
        if len({(v[1].key if v[1] else None, v[2].key if v[2] else None) for v in verdicts.values()}) > 1:
            self.report(node, "MIG204", f"`{dotted_name(node)}` resolves to {', '.join(sorted(raw_names))}",
                        "import the name one way only, so that every spelling means the same")
            return
        name, claim, unsupported = next(iter(verdicts.values()))
        if claim is not None and (unsupported is None or len(claim.key) >= len(unsupported.key)):
            blocked = unsupported_keywords(claim.entry, call) if claim.hops == 0 else []
            if blocked:
                target = display(claim.entry.target)
                self.report(node, "MIG201",
                            f"`{display(claim.key)}` is called with {', '.join(_argument(k) for k in blocked)}, "
                            f"which `{target}` does not accept; call left unchanged",
                            argument_hint(claim.key, blocked)
                            or f"drop or translate the argument by hand, then spell the call `{target}`")
            return
        if unsupported is not None:
            entry: Unsupported = unsupported.entry
            # The exact replacement when one is recorded, not the entry's general advice.
            self.report(node, entry.code, entry.message.format(name=display(name)), hint_for(name) or entry.hint)


# A removed name used inside `try:` whose handler catches AttributeError (and does not re-raise):
# version-compatible code (adanet's summary.py patches tf_v1.contrib.summary "if present"). On TF 2 the
# lookup raises there and the fallback runs, so the warning says so instead of implying a crash.
GUARDABLE = frozenset({"MIG301", "MIG302"})
GUARDED_NOTE = (" (inside `try:` with an `except` that catches AttributeError: on TensorFlow 2 this lookup raises "
                "there and the except branch runs, so nothing crashes; the try body is dead code unless that "
                "fallback is not what you want)")
_ATTRIBUTE_ERRORS = {"AttributeError", "Exception", "BaseException"}


def _catches_attribute_error(handler: cst.ExceptHandler) -> bool:
    """The handler catches AttributeError (bare, named, or in a tuple) and does not re-raise."""
    kind = handler.type
    if kind is None:
        names = {"BaseException"}
    elif isinstance(kind, cst.Tuple):
        names = {dotted_name(element.value) for element in kind.elements}
    else:
        names = {dotted_name(kind)}
    if not {name.rsplit(".", 1)[-1] for name in names if name} & _ATTRIBUTE_ERRORS:
        return False
    return not any(isinstance(statement, cst.SimpleStatementLine)
                   and any(isinstance(small, cst.Raise) for small in statement.body)
                   for statement in handler.body.body)


class _GuardedNodes(cst.CSTVisitor):
    """ids of every node inside the body of a `try` that one of its handlers guards against AttributeError."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self._depth = 0

    def visit_Try(self, node: cst.Try) -> bool:
        if self._depth == 0 and any(_catches_attribute_error(handler) for handler in node.handlers):
            self._depth += 1
            node.body.visit(self)
            self._depth -= 1
            for handler in node.handlers:
                handler.visit(self)
            if node.orelse is not None:
                node.orelse.visit(self)
            if node.finalbody is not None:
                node.finalbody.visit(self)
            return False
        return True

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            return False  # a missing module raises ImportError, which the handler does not catch
        if not self._depth and isinstance(node, (cst.SimpleStatementLine, cst.BaseExpression)):
            return False  # no `try` statement inside: nothing below to guard or to find
        if self._depth:
            self.ids.add(id(node))
        return super().on_visit(node)


def _attribute_guarded(module: cst.Module) -> set[int]:
    visitor = _GuardedNodes()
    module.visit(visitor)
    return visitor.ids


# Codes about a whole package nothing rewrites (tensor2tensor): what to do is the same at every use, so
# a file gets one finding, at the first use, that counts the others (not one per use). TF-Slim (MIG302)
# is not one of them: the names tf-slim holds are rewritten, so each MIG302 left is a site of its own
# to edit by hand (a name tf-slim lacks, a kept `slim = tf.contrib.slim` alias's use), reported where it is.
PACKAGE_CODES = frozenset({"MIG303"})


def once_per_package(findings: list[Finding]) -> list[Finding]:
    """`findings` (sorted) with each PACKAGE_CODES code kept at its first use only, counting the rest."""
    counts: dict[str, int] = {}
    for finding in findings:
        if finding.code in PACKAGE_CODES:
            counts[finding.code] = counts.get(finding.code, 0) + 1
    out, reported = [], set()
    for finding in findings:
        if finding.code not in PACKAGE_CODES:
            out.append(finding)
        elif finding.code not in reported:
            reported.add(finding.code)
            more = counts[finding.code] - 1
            message = finding.message + (f" (first of {more + 1} uses of the package in this file)" if more else "")
            out.append(Finding(finding.location, finding.code, message, finding.hint))
    return out
