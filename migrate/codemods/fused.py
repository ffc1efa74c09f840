"""Every codemod of a pipeline in one traversal (what the engine runs), plus the findings.

The codemods are records of the registry (codemods/registry.py); this pass reads them: table
lookups are asked in pipeline order and the first claim wins, and each structural handler is
offered the nodes of its kind in pipeline order until one returns a replacement. One traversal
costs one scope analysis per module instead of one per codemod.
"""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from migrate.codemods.base import PassContext, TableRewrite, dotted_name
from migrate.codemods.registry import Codemod
from migrate.codemods.findings_collector import FindingCollector
from migrate.resolve import Match


# Skip the expressions and statement lines no codemod can reach (False: visit all; tests compare both).
SKIP_LINES = True


class FusedRewrite(TableRewrite):
    """The pipeline's table rewrites and structural rewrites in one pass."""

    DESCRIPTION = "Every migrate codemod in one traversal."
    PIPELINE: ClassVar[tuple[Codemod, ...]] = ()

    def __init__(self, context: PassContext, collector: FindingCollector | None = None) -> None:
        super().__init__(context)
        self.collector = collector
        self._use(self.PIPELINE)
        self._active: tuple[Codemod, ...] | None = None
        self._skip: set[int] = set()  # ids of the expressions and statement lines the pass skips whole

    def _use(self, codemods: tuple[Codemod, ...]) -> None:
        """Handlers of `codemods` (the ones on for this module), by hook, in pipeline order."""
        self._leave_call = [c.leave_call for c in codemods if c.leave_call]
        self._leave_attribute = [c.leave_attribute for c in codemods if c.leave_attribute]
        self._leave_statement = [c.leave_statement for c in codemods if c.leave_statement]
        self._leave_header = [c.leave_header for c in codemods if c.leave_header]
        self._claimed_by_call = [c.claimed_by_call for c in codemods if c.claimed_by_call]
        self._claimed_by_statement = [c.claimed_by_statement for c in codemods if c.claimed_by_statement]
        self._call_findings = [c.call_findings for c in codemods if c.call_findings]
        self._statement_findings = [c.statement_findings for c in codemods if c.statement_findings]

    @classmethod
    def lookup(cls, canonical_name: str, raw_name: str, call: cst.Call | None) -> Match | None:
        for codemod in cls.PIPELINE:
            match = codemod.claim(canonical_name, raw_name, call)
            if match is not None:
                return match
        return None

    def _collect(self, node: cst.CSTNode) -> None:
        if self.collector is not None:
            names = self.import_names(node)
            if not names and type(node) is cst.Name and self.names is not None:
                # a kept alias read as a value (`g(slim)` with `slim = tf.contrib.slim`): a use of what
                # it aliases, left as written, so reported where it is, as `slim.name` uses are
                alias = self.names.bare_alias_use(node)
                names = set(alias.targets) if alias is not None else names
            self.collector.check(node, names, self._calls.get(id(node)))

    # ---- visits ----------------------------------------------------------------------------
    def line_names(self, watched: frozenset[str]) -> frozenset[str] | None:
        """The watched names plus what the codemods on for this module declare (`line_reach`);
        None when one of them may act on any line."""
        self._active = tuple(c for c in self.PIPELINE if c.on_for(self.source_text))
        names = set(watched)
        for codemod in self._active:
            reach = codemod.line_reach(self.source_text)
            if reach is None:
                return None
            names |= reach
        return frozenset(names)

    def visit_Module(self, node: cst.Module) -> None:
        self._active = None
        TableRewrite.visit_Module(self, node)
        active = self._active if self._active is not None else tuple(
            c for c in self.PIPELINE if c.on_for(self.source_text))
        self._use(active)
        # Expressions and statement lines without such a name (or an import) are skipped whole: no
        # rule of the pipeline can act in them, and most of a real file is such code.
        skippable = self.names.skippable if self.names is not None and SKIP_LINES else None
        self._skip = skippable if skippable is not None else set()
        self.state = {c.name: c.start(self, node) for c in active if c.start}

    def visit_Call(self, node: cst.Call) -> None:
        TableRewrite.visit_Call(self, node)
        if self.collector is not None:
            for claimed in self._claimed_by_call:
                self.collector.handled.update(id(func) for func in claimed(self, node))
            for findings in self._call_findings:
                for finding in findings(self, node):
                    self.collector.report(*finding)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if dotted_name(node) is not None and self.watched(node):
            self._collect(node)
        return TableRewrite.visit_Attribute(self, node)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self._watched:
            self._collect(node)
            TableRewrite.visit_Name(self, node)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) in self._skip:
            return False
        return TableRewrite.on_visit(self, node)

    def on_leave(self, original_node, updated_node):
        if id(original_node) in self._skip:
            return updated_node
        return TableRewrite.on_leave(self, original_node, updated_node)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        if self.collector is not None:
            for claimed in self._claimed_by_statement:
                self.collector.handled.update(id(func) for func in claimed(self, node))
            for findings in self._statement_findings:
                for finding in findings(self, node):
                    self.collector.report(*finding)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        updated_node = TableRewrite.leave_Module(self, original_node, updated_node)
        if self.collector is not None and self.removed_alias_values:
            # an alias assignment removed with its every use rewritten: its value is not reported
            self.collector.pending = [entry for entry in self.collector.pending
                                      if id(entry[0]) not in self.removed_alias_values]
        return updated_node

    def call_handlers_after(self, handler) -> list:
        """The leave_call handlers on for this module after `handler`, in pipeline order: a handler that
        rewrites part of a call other codemods also rewrite (a compile's optimizer; its metrics are
        KerasTF1MetricNames') hands them its result, which the first-wins rule below would not."""
        handlers = self._leave_call
        return handlers[handlers.index(handler) + 1:] if handler in handlers else []

    def hand_on(self, handler, original_node: cst.Call, rewritten: cst.Call) -> cst.BaseExpression:
        """`rewritten` as the first later handler rewrites it (first wins, as in leave_Call), else itself."""
        for later in self.call_handlers_after(handler):
            again = later(self, original_node, rewritten)
            if again is not None:
                return again
        return rewritten

    # ---- leaves: the first structural handler that rewrites wins, else the table rewrite -----
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        for handler in self._leave_call:
            rewritten = handler(self, original_node, updated_node)
            if rewritten is not None:
                return rewritten
        return TableRewrite.leave_Call(self, original_node, updated_node)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        for handler in self._leave_statement:
            rewritten = handler(self, original_node, updated_node)
            if rewritten is not None:
                return rewritten
        return TableRewrite.leave_SimpleStatementLine(self, original_node, updated_node)

    def _leave_compound(self, original_node, updated_node):
        """`if`/`elif`/`while`/`for`: the header handlers (their test or iterable), first one wins."""
        for handler in self._leave_header:
            rewritten = handler(self, original_node, updated_node)
            if rewritten is not None:
                return rewritten
        return updated_node

    leave_If = leave_While = leave_For = _leave_compound

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        for handler in self._leave_attribute:
            rewritten = handler(self, original_node, updated_node)
            if rewritten is not None:
                return rewritten
        return TableRewrite.leave_Attribute(self, original_node, updated_node)


def fuse(pipeline: tuple[Codemod, ...]) -> type[FusedRewrite]:
    """A FusedRewrite class over the codemods of `pipeline` (registry records, in order)."""
    return type("PipelineRewrite", (FusedRewrite,), {"PIPELINE": tuple(pipeline)})
