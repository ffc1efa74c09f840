"""Line and column where given libcst nodes start, for findings (one code generation, no metadata).

libcst's PositionProvider records a range for every node of the module (about ten times the cost
of generating the code); the findings need the start of a few nodes. This walks the same code
generation and records only those, with the same rule as PositionProvider's start: the
syntactic position (an expression without its parentheses, a statement after its indentation).
"""

from __future__ import annotations

import re
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Iterable

import libcst as cst
from libcst._nodes.internal import CodegenState

_NEWLINE = re.compile(r"\r\n?|\n")
_NOTHING = nullcontext()


@dataclass
class _StartsOf(CodegenState):
    targets: frozenset = frozenset()        # ids of the nodes whose start is wanted
    wanted: object = None                   # or a predicate on nodes
    starts: dict = field(default_factory=dict)
    line: int = 1                           # one-indexed, as PositionProvider
    column: int = 0                         # zero-indexed, in characters

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            segments = _NEWLINE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def pop_trailing_newline(self) -> None:
        pass  # after the last node: no start can move

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        # The start is where the context is entered, which is now (no generator per node needed).
        if id(node) in self.targets or (self.wanted is not None and self.wanted(node)):
            self.starts[id(node)] = (self.line, self.column)
        return _NOTHING


@dataclass
class _StartsAndLines(_StartsOf):
    """`_StartsOf` that also notes the statement lines holding a name of `line_names` or an import,
    and the start of every node in `every_start` (what the findings are located by later)."""
    line_names: frozenset = frozenset()
    lines: set = field(default_factory=set)  # ids of those statement lines
    every_start: dict = field(default_factory=dict)
    _line: int = 0                          # id of the statement line being generated (0: none)

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        self.every_start[id(node)] = (self.line, self.column)
        kind = type(node)
        if kind is cst.Name:
            if node.value in self.line_names:
                self.lines.add(self._line)
        elif kind is cst.SimpleStatementLine:
            return self._statement_line(node)
        elif kind is cst.Import or kind is cst.ImportFrom:
            self.lines.add(self._line)
        return _StartsOf.record_syntactic_position(self, node)

    @contextmanager
    def _statement_line(self, node):
        self.every_start[id(node)] = (self.line, self.column)
        if id(node) in self.targets or (self.wanted is not None and self.wanted(node)):
            self.starts[id(node)] = (self.line, self.column)
        outer, self._line = self._line, id(node)
        try:
            yield
        finally:
            self._line = outer


def starts_and_lines(module: cst.Module, wanted, line_names: frozenset
                     ) -> tuple[dict[int, tuple[int, int]], set[int], dict[int, tuple[int, int]]]:
    """`starts(module, wanted=wanted)`, and from the same code generation: the ids of the statement
    lines (`SimpleStatementLine`) that hold a Name whose value is in `line_names` or an import (the
    lines a rewrite keyed by those names can touch: codemods/fused.py skips the others), and the
    start of every node that has one (the findings are located by it: no second code generation)."""
    state = _StartsAndLines(default_indent=module.default_indent, default_newline=module.default_newline,
                            wanted=wanted, line_names=line_names)
    module._codegen(state)
    state.lines.discard(0)
    return state.starts, state.lines, state.every_start


def starts(module: cst.Module, nodes: Iterable[cst.CSTNode] = (), wanted=None) -> dict[int, tuple[int, int]]:
    """{id(node): (line, column)} for `nodes` of `module` and every node `wanted(node)` is true
    for (PositionProvider's `.start`)."""
    state = _StartsOf(default_indent=module.default_indent, default_newline=module.default_newline,
                      targets=frozenset(id(node) for node in nodes), wanted=wanted)
    module._codegen(state)
    return state.starts
