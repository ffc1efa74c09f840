"""libcst's visitor dispatch without its per-node string formatting.

libcst calls four hooks per node and child field: `on_visit` / `on_leave` find `visit_<Type>` /
`leave_<Type>` by formatting the name and `getattr` on every call, and `on_visit_attribute` /
`on_leave_attribute` do the same for `visit_<Type>_<field>` methods, which no migrate pass
defines: about a million hook calls per real tree for a few thousand handler calls. `FastDispatch` looks each handler up once per (pass class, node type) and makes the field
hooks no-ops; what runs is unchanged.
"""

from __future__ import annotations

import libcst as cst

_HANDLERS: dict[tuple[type, str, type], object] = {}


def _handler(cls: type, prefix: str, kind: type):
    key = (cls, prefix, kind)
    try:
        return _HANDLERS[key]
    except KeyError:
        found = _HANDLERS[key] = getattr(cls, f"{prefix}{kind.__name__}", None)
        return found


class FastDispatch(cst.CSTTransformer):
    """A CSTTransformer whose handlers are found by (class, node type) once (see the module doc).

    Handlers are methods of the class (not set on instances) and no `visit_<Type>_<field>` /
    `leave_<Type>_<field>` methods exist (tests/migrate/test_dispatch.py checks the passes)."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        visit = _handler(type(self), "visit_", type(node))
        return True if visit is None else visit(self, node) is not False

    def on_leave(self, original_node, updated_node):
        leave = _handler(type(self), "leave_", type(original_node))
        return updated_node if leave is None else leave(self, original_node, updated_node)

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass
