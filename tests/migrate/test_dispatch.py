"""FastDispatch (codemods/dispatch.py) runs exactly the handlers libcst's own dispatch would.

It looks handlers up on the class once per node type and makes libcst's per-field hooks no-ops,
so a pass must not define `visit_<Type>_<field>` / `leave_<Type>_<field>` methods (they would be
silently ignored), and it must call the same handlers in the same order as libcst does.
"""

from __future__ import annotations

import re

import libcst as cst

import migrate.codemods  # noqa: F401 (imports every codemod module: all passes are defined)
from migrate.codemods.dispatch import FastDispatch

FIELD_HOOK = re.compile(r"^(visit|leave)_[A-Z]\w*_[a-z]\w*$")


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_no_pass_defines_a_field_hook():
    for cls in _subclasses(FastDispatch):
        # (libcst's own base classes declare a typed stub for every hook; only ours count)
        hooks = [name for klass in cls.__mro__ if klass.__module__.startswith(("migrate.", "tests."))
                 for name in vars(klass) if FIELD_HOOK.match(name)]
        assert not hooks, f"{cls.__qualname__} defines {hooks}, which FastDispatch never calls"


class _Recording:
    def __init__(self):
        super().__init__()
        self.calls = []

    def visit_Name(self, node):
        self.calls.append(("visit", node.value))
        return node.value != "skip"

    def leave_Name(self, original_node, updated_node):
        self.calls.append(("leave", original_node.value))
        return updated_node.with_changes(value=updated_node.value.upper()) if updated_node.value == "x" else updated_node

    def visit_Call(self, node):
        self.calls.append(("visit", "call"))
        return False if isinstance(node.func, cst.Name) and node.func.value == "opaque" else None

    def leave_Call(self, original_node, updated_node):
        self.calls.append(("leave", "call"))
        return updated_node


class _Fast(_Recording, FastDispatch):
    pass


class _Libcst(_Recording, cst.CSTTransformer):
    pass


def test_same_handlers_same_order_same_tree_as_libcst():
    module = cst.parse_module("x = f(x, skip.y)\nopaque(x)\nz = [x for x in y]\n")
    fast, reference = _Fast(), _Libcst()
    assert module.visit(fast).code == module.visit(reference).code == "X = f(X, skip.y)\nopaque(x)\nz = [X for X in y]\n"
    assert fast.calls == reference.calls
