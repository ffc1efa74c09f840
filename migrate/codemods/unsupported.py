"""Findings: what will not be rewritten, reported at the ORIGINAL line and column.

`FindingCollector` asks the same lookups the codemods use (so it can never disagree with them) and
reports references no codemod claims but a table marks unsupported, calls left alone because of a
keyword without equivalent, and names reached through several imports that disagree. The engine
runs it inside the first rewrite pass (which sees the original module); `UnsupportedReporter` is
the same logic as a read-only visitor, for running it on its own.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

import libcst as cst
from libcst.metadata import PositionProvider, QualifiedNameProvider

from migrate.codemods.base import TableRewrite, dotted_name, imported_names, unsupported_keywords
from migrate.codemods.contrib_data import apply_target, rewrite_apply
from migrate.findings import Finding, Location
from migrate.resolve import canonical, longest_prefix
from migrate.tables.contrib import UNSUPPORTED
from migrate.tables.entries import Unsupported
from migrate.tables.estimator import ESTIMATOR_UNSUPPORTED
from migrate.tables.keras import KERAS_UNSUPPORTED
from migrate.tables.layers import LAYERS_UNSUPPORTED

UNSUPPORTED_TABLE = {**UNSUPPORTED, **ESTIMATOR_UNSUPPORTED, **LAYERS_UNSUPPORTED, **KERAS_UNSUPPORTED}


def _argument(name: str) -> str:
    """How a blocked argument is named in a finding: `family=`, or `*args` for one with no place."""
    return f"`{name}`" if name.startswith("*") else f"`{name}=`"


def display(name: str) -> str:
    """`tf.X` for `tensorflow.X` (how users spell it)."""
    return "tf." + name[len("tensorflow."):] if name.startswith("tensorflow.") else name


class FindingCollector:
    """Accumulates findings; `pipeline` are the codemod classes whose lookups decide what is claimed."""

    def __init__(self, pipeline: Sequence[type[TableRewrite]]) -> None:
        self.pipeline = tuple(pipeline)
        self.pending: list[tuple[cst.CSTNode, str, str, str]] = []  # (node, code, message, hint)
        self.handled: set[int] = set()   # func nodes a structural codemod rewrites

    def report(self, node: cst.CSTNode, code: str, message: str, hint: str) -> None:
        self.pending.append((node, code, message, hint))

    def findings(self, module: cst.Module) -> list[Finding]:
        """The findings, located in `module` (the tree the pass visited); one per line, code, message."""
        if not self.pending:
            return []
        positions = cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        found, seen = [], set()
        for node, code, message, hint in self.pending:
            start = positions[node].start
            if (start.line, code, message) not in seen:
                seen.add((start.line, code, message))
                found.append(Finding(Location(start.line, start.column), code, message, hint))
        return sorted(found)

    def claim(self, canonical_name: str, raw: str, call: cst.Call | None):
        for codemod in self.pipeline:
            match = codemod.lookup(canonical_name, raw, call)
            if match is not None:
                return match
        return None

    def note_call(self, node: cst.Call, names: Callable[[cst.CSTNode], set[str]]) -> None:
        """Remember `ds.apply(contrib_fn(...))` calls that contrib_data rewrites (not findings)."""
        found = apply_target(node, names)
        if found is not None:
            key, inner = found
            if rewrite_apply(node.func.value, key, inner, lambda target: cst.Name("x")) is not None:
                self.handled.add(id(inner.func))

    def check(self, node: cst.CSTNode, raw_names: set[str], call: cst.Call | None) -> None:
        if not raw_names or id(node) in self.handled:
            return
        verdicts = {}
        for raw in raw_names:
            name = canonical(raw)
            verdicts[raw] = (name, self.claim(name, raw, call), longest_prefix(name, UNSUPPORTED_TABLE))
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
                            f"drop or translate the argument by hand, then spell the call `{target}`")
            return
        if unsupported is not None:
            entry: Unsupported = unsupported.entry
            self.report(node, entry.code, entry.message.format(name=display(name)), entry.hint)


class UnsupportedReporter(cst.CSTVisitor):
    """The findings of one module as a read-only visit (the engine fuses this into its first pass)."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def __init__(self, pipeline: Sequence[type[TableRewrite]]) -> None:
        super().__init__()
        self.collector = FindingCollector(pipeline)
        self._calls: dict[int, cst.Call] = {}

    def _names(self, node: cst.CSTNode) -> set[str]:
        return imported_names(node, self.get_metadata(QualifiedNameProvider, node, set()))

    def _check(self, node: cst.CSTNode) -> None:
        self.collector.check(node, self._names(node), self._calls.get(id(node)))

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> None:
        self._calls[id(node.func)] = node
        self.collector.note_call(node, self._names)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if dotted_name(node) is None:
            return True
        self._check(node)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self._check(node)


def report(wrapper: cst.MetadataWrapper, pipeline: Iterable[type[TableRewrite]]) -> list[Finding]:
    """Findings for the module in `wrapper` (positions of the original source)."""
    reporter = UnsupportedReporter(tuple(pipeline))
    wrapper.visit(reporter)
    return reporter.collector.findings(wrapper.module)
