"""Line and column where given libcst nodes start, for findings (one code generation, no metadata).

libcst's PositionProvider records a range for every node of the module (about ten times the cost
of generating the code); the findings need the start of a few nodes. This walks the same code
generation and records only those, with the same rule as PositionProvider's start: the
syntactic position (an expression without its parentheses, a statement after its indentation).
"""

from __future__ import annotations

import re
from contextlib import nullcontext
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


def _expression_types() -> frozenset[type]:
    found, pending = set(), [cst.BaseExpression]
    while pending:
        for sub in pending.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                pending.append(sub)
    return frozenset(found)


# What can be skipped whole: an expression (all of it is generated inside its own recorded
# context: only its parentheses are outside) or a statement line. Not compound statements: their
# decorators are generated before their context opens.
_SKIPPABLE = _expression_types() | {cst.SimpleStatementLine}


class _Close:
    """The context a skippable node's code is generated in: closing it pops the node."""
    __slots__ = ("open",)

    def __init__(self, open_nodes: list) -> None:
        self.open = open_nodes

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        self.open.pop()


@dataclass
class _StartsAndReach(_StartsOf):
    """`_StartsOf` that also records the start of every node (`every_start`: the findings are
    located by it later) and which skippable nodes hold a Name of `reach_names` or an import."""
    reach_names: frozenset = frozenset()
    every_start: dict = field(default_factory=dict)
    skippable: dict = field(default_factory=dict)   # ids of the skippable nodes (as keys)
    reached: set = field(default_factory=set)       # ... of those that hold such a name or an import
    open_nodes: list = field(default_factory=list)  # skippable nodes being generated, outermost first

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        key = id(node)
        position = self.every_start[key] = (self.line, self.column)
        if key in self.targets or (self.wanted is not None and self.wanted(node)):
            self.starts[key] = position
        kind = type(node)
        if kind in _SKIPPABLE:
            self.skippable[key] = None
            self.open_nodes.append(key)
            if kind is cst.Name and node.value in self.reach_names:
                self._reach()
            return _Close(self.open_nodes)
        if kind is cst.Import or kind is cst.ImportFrom:
            self._reach()
        return _NOTHING

    def _reach(self) -> None:
        """Every open skippable node holds what was just found (stop at one already marked)."""
        reached = self.reached
        for key in reversed(self.open_nodes):
            if key in reached:
                return
            reached.add(key)


def starts_and_skippable(module: cst.Module, wanted, reach_names: frozenset
                         ) -> tuple[dict[int, tuple[int, int]], set[int], dict[int, tuple[int, int]]]:
    """`starts(module, wanted=wanted)`, and from the same code generation: the ids of the
    expressions and statement lines that hold no Name whose value is in `reach_names` and no import
    (no rewrite keyed by those names can act in them: codemods/fused.py skips them whole), and the
    start of every node that has one (the findings are located by it: no second code generation)."""
    state = _StartsAndReach(default_indent=module.default_indent, default_newline=module.default_newline,
                            wanted=wanted, reach_names=reach_names)
    module._codegen(state)
    return state.starts, state.skippable.keys() - state.reached, state.every_start


def starts(module: cst.Module, nodes: Iterable[cst.CSTNode] = (), wanted=None) -> dict[int, tuple[int, int]]:
    """{id(node): (line, column)} for `nodes` of `module` and every node `wanted(node)` is true
    for (PositionProvider's `.start`)."""
    state = _StartsOf(default_indent=module.default_indent, default_newline=module.default_newline,
                      targets=frozenset(id(node) for node in nodes), wanted=wanted)
    module._codegen(state)
    return state.starts
