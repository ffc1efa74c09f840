"""All codemods of the pipeline in one traversal (what the engine runs), plus the findings.

Each codemod stays a class of its own (runnable and testable alone); fusing them costs one
qualified-name analysis per pass instead of one per codemod. Lookups are asked in pipeline
order and the first claim wins (the tables are disjoint: tests/migrate/test_tables.py).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from typing import ClassVar

import libcst as cst
from libcst.codemod import Codemod, CodemodContext
from libcst.metadata import ScopeProvider

from migrate.codemods.base import TableRewrite, dotted_name
from migrate.codemods.contrib_data import ContribDataApplyToMethods
from migrate.codemods.dimension_value import DimensionValueToCompat
from migrate.codemods.summary_cadence import SummaryCadenceToRecordIf
from migrate.codemods.eager_for_bridge import EagerForBridge
from migrate.codemods.keras_methods import KerasRemovedMethods
from migrate.codemods.keras_optimizers import KerasCompileOptimizers
from migrate.codemods.keras_tpu import KerasToTPUStrategy, plan as keras_plan
from migrate.findings import Finding, Location
from migrate.codemods.eager_for_bridge import SWITCHES
from migrate.codemods.unsupported import FindingCollector
from migrate.resolve import Match


STRUCTURAL = (ContribDataApplyToMethods, EagerForBridge, KerasToTPUStrategy, KerasCompileOptimizers,
              KerasRemovedMethods, DimensionValueToCompat, SummaryCadenceToRecordIf)


class FusedRewrite(*STRUCTURAL):
    """The pipeline's table rewrites and the contrib.data structural rewrite in one pass."""

    DESCRIPTION = "Every migrate codemod in one traversal."
    METADATA_DEPENDENCIES = (ScopeProvider,)
    PARTS: ClassVar[tuple[type[TableRewrite], ...]] = ()

    def __init__(self, context: CodemodContext, collector: FindingCollector | None = None) -> None:
        # Not super().__init__: libcst's MatcherDecoratableTransformer.__init__ scans every method
        # of the instance for matcher decorators (this package has none), ~5% of a file's time.
        Codemod.__init__(self, context)
        cst.CSTTransformer.__init__(self)
        self.start_state()
        self.collector = collector

    # No matcher decorators: visit like a plain CSTTransformer, without libcst's per-node matcher
    # bookkeeping (~9% of a file's time).
    on_visit = cst.CSTTransformer.on_visit
    on_leave = cst.CSTTransformer.on_leave
    on_visit_attribute = cst.CSTTransformer.on_visit_attribute
    on_leave_attribute = cst.CSTTransformer.on_leave_attribute

    @classmethod
    def lookup(cls, canonical_name: str, raw_name: str, call: cst.Call | None) -> Match | None:
        for part in cls.PARTS:
            match = part.lookup(canonical_name, raw_name, call)
            if match is not None:
                return match
        return None

    def _collect(self, node: cst.CSTNode) -> None:
        if self.collector is not None:
            self.collector.check(node, self._names(node), self._calls.get(id(node)))

    # Table behaviour from TableRewrite, structural leave_Call from ContribDataApplyToMethods.
    def visit_Call(self, node: cst.Call) -> None:
        TableRewrite.visit_Call(self, node)
        if self.collector is not None:
            self.collector.note_call(node, self._names)
            if self.is_cadence_call(node):
                self.collector.handled.add(id(node.func))  # rewritten below, not a finding
            self.note_optimizer(node, self.collector)
            self.note_keras_call(node, self.collector)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if dotted_name(node) is not None and self.watched(node):
            self._collect(node)
        return TableRewrite.visit_Attribute(self, node)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self._watched:
            self._collect(node)
            TableRewrite.visit_Name(self, node)

    @contextmanager
    def _handle_metadata_reference(self, module: cst.Module):
        # As libcst's, without deep-copying the module first: the engine parses every file
        # freshly and never reuses the tree it hands in.
        wrapper = cst.MetadataWrapper(module, unsafe_skip_copy=True)
        previous = self.context.wrapper
        with self.resolve(wrapper):
            self.context = replace(self.context, wrapper=wrapper)
            try:
                yield wrapper.module
            finally:
                self.context = replace(self.context, wrapper=previous)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        rewritten = ContribDataApplyToMethods.leave_Call(self, original_node, updated_node)
        if rewritten is not updated_node:
            return rewritten
        for rewrite in (self.rewrite_cadence, self.rewrite_optimizer, self.rewrite_keras_call):
            rewritten = rewrite(original_node, updated_node)
            if rewritten is not None:
                return rewritten
        return TableRewrite.leave_Call(self, original_node, updated_node)

    def visit_Module(self, node: cst.Module) -> None:
        EagerForBridge.visit_Module(self, node)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if self.collector is not None:
            planned = keras_plan(node, self._names)
            if planned is not None:
                self.collector.handled.update(id(func) for func in planned[1]["handled"])
        key = self.switch_of(node)
        if key is not None and self.collector is not None:
            self.collector.report(
                node, "MIG102",
                f"`{key.replace('tensorflow.', 'tf.')}()` would turn off eager execution, which estimator_bridge "
                "needs; replaced (TF1 TensorShape kept)" if SWITCHES[key] else
                f"`{key.replace('tensorflow.', 'tf.')}()` would turn off eager execution, which estimator_bridge "
                "needs; removed", "nothing to do unless this file also runs tf.compat.v1.Session code")

    def leave_SimpleStatementLine(self, original_node, updated_node):
        rewritten = self.rewrite_switch(original_node, updated_node)
        if rewritten is None:
            rewritten = self.rewrite_keras_tpu(original_node, updated_node, self._names)
        if rewritten is not None:
            return rewritten
        return TableRewrite.leave_SimpleStatementLine(self, original_node, updated_node)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        renamed = self.rename_method(original_node, updated_node)
        if renamed is None:
            renamed = self.rewrite_dimension_value(original_node, updated_node)
        return renamed if renamed is not None else TableRewrite.leave_Attribute(self, original_node, updated_node)


def fuse(pipeline: tuple[type[TableRewrite], ...]) -> type[FusedRewrite]:
    """A FusedRewrite class over the table codemods of `pipeline`."""
    parts = tuple(c for c in pipeline if not issubclass(c, STRUCTURAL))
    return type("PipelineRewrite", (FusedRewrite,), {"PARTS": parts})
