"""Import bookkeeping inside the one pass: add the imports new spellings need, drop dead ones.

libcst's AddImportsVisitor/RemoveImportsVisitor each re-walk the module with their own scope
analysis, which cost a third of the run time; the pass already has the scope analysis, so it
decides itself: an alias of a dead module (tensorflow.contrib, tensorflow_estimator, ...) is
dropped when every access to it was rewritten away (or it had none).
"""

from __future__ import annotations

from typing import Iterable, Sequence

import libcst as cst

from migrate.codemods.dispatch import FastDispatch


def _is_future_or_docstring(statement: cst.BaseStatement) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    if isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    return isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and small.module.value == "__future__"


def _is_import_line(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)


def existing_imports(module: cst.Module) -> set[tuple[str, str | None]]:
    """{(module, asname)} of the module's top-level `import X [as Y]` statements."""
    found = set()
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        name = cst.Module([]).code_for_node(alias.name)
                        asname = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else None
                        found.add((name, asname))
    return found


def add_imports(module: cst.Module, needed: Iterable[tuple[str, str | None]]) -> cst.Module:
    """`module` with `import X [as Y]` lines for `needed`, after its leading import block."""
    present = existing_imports(module)
    lines = [cst.parse_statement(f"import {name}" + (f" as {asname}" if asname else "") + "\n")
             for name, asname in sorted(set(needed)) if (name, asname) not in present]
    return add_after_imports(module, lines)


def add_after_imports(module: cst.Module, lines: list[cst.BaseStatement]) -> cst.Module:
    """`module` with `lines` after its leading import block (and docstring, __future__ imports)."""
    if not lines:
        return module
    body = list(module.body)
    position = 0
    for index, statement in enumerate(body):
        if _is_import_line(statement) or _is_future_or_docstring(statement):
            position = index + 1
        else:
            break
    if position == 0 and body and _is_future_or_docstring(body[0]):
        position = 1
    if position < len(body) and not body[position].leading_lines and not _is_import_line(body[position]):
        # an import block is followed by a blank line (as libcst's AddImportsVisitor does)
        body[position] = body[position].with_changes(leading_lines=[cst.EmptyLine()])
    return module.with_changes(body=body[:position] + lines + body[position:])


_NO_IMPORTS_BELOW = (cst.BaseExpression, cst.Parameters, cst.Decorator, cst.WithItem, cst.Arg)


class DropAliases(FastDispatch):
    """Remove import aliases binding `names` (from statements importing `modules`), and emptied lines."""

    def __init__(self, names: set[str], is_dead) -> None:
        super().__init__()
        self.names = names
        self.is_dead = is_dead

    def on_visit(self, node: cst.CSTNode) -> bool:
        # Imports are statements: no expression (a compound statement's header) can hold one.
        return not isinstance(node, _NO_IMPORTS_BELOW) and super().on_visit(node)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return False

    def visit_FunctionDef(self, node) -> bool:
        return True

    def leave_SimpleStatementLine(self, original_node, updated_node):
        body = []
        changed = False
        for small in updated_node.body:
            if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(getattr(small, "names", None), cst.ImportStar):
                kept = [alias for alias in small.names if not self._drops(small, alias)]
                if len(kept) != len(small.names):
                    changed = True
                    if not kept:
                        continue
                    kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                    small = small.with_changes(names=kept)
            body.append(small)
        if not changed:
            return updated_node
        if not body:
            return cst.RemoveFromParent()
        body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(body=body)

    def _drops(self, statement, alias: cst.ImportAlias) -> bool:
        full = cst.Module([]).code_for_node(alias.name)
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            bound = alias.asname.name.value
        else:
            bound = full.split(".")[0] if isinstance(statement, cst.Import) else full
        if bound not in self.names:
            return False
        if isinstance(statement, cst.Import):
            return self.is_dead(full)
        module = cst.Module([]).code_for_node(statement.module) if statement.module is not None else ""
        return bool(module) and not statement.relative and (self.is_dead(module) or self.is_dead(f"{module}.{full}"))


def drop_aliases(module: cst.Module, names: set[str], is_dead, renamed_modules: Sequence[str] = ()) -> cst.Module:
    if not names:
        return module
    return module.visit(DropAliases(names, lambda m: is_dead(m) or m in renamed_modules))
