"""The names one statement binds in its block, read with `ast` (no TensorFlow, no libcst).

Shared by the table generator (a module's top-level names, generate_tf_api.py) and the final
name check (a bridge class's members, existence.py): both read source files rather than import
them, and must agree on what a statement binds.
"""

from __future__ import annotations

import ast


def defined_or_assigned(statement: ast.stmt) -> set[str]:
    """A def's or class's name, or the Name leaves of an assignment's targets; else nothing."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return {leaf.id for target in targets for leaf in ast.walk(target) if isinstance(leaf, ast.Name)}
    return set()
