"""TensorFlow names a file gets through a star import of a module of its own tree.

`from utils import *` where utils.py does `import tensorflow as tf` binds `tf` in the importing
file, which itself never imports TensorFlow. `star_bindings` finds such names by
reading the star-imported module's source next to the file (or a package of that name, up to
three folders up) and answers the import statements that bound them there; the engine migrates
the file as if that import stood on the star import's line (`bound_text`) and takes it out
again afterwards (`unbound_text`), so line numbers and the file's other bytes are unchanged.
"""

from __future__ import annotations

import ast
from pathlib import Path

_SEARCH_UP = 3  # folders above the file where `from pkg.mod import *` may start
_WATCHED = ("tensorflow", "keras", "tensor2tensor")


def _module_file(folder: Path, module: str, level: int) -> Path | None:
    parts = module.split(".") if module else []
    if level:
        base = folder
        for _ in range(level - 1):
            base = base.parent
        bases = [base]
    else:
        bases = [folder, *list(folder.parents)[:_SEARCH_UP]]
    for base in bases:
        target = base.joinpath(*parts) if parts else base
        for candidate in (target.with_suffix(".py") if parts else None, target / "__init__.py"):
            if candidate is not None and candidate.is_file():
                return candidate
    return None


def _exported_imports(source: str) -> dict[str, str]:
    """{name: import statement} for the module's top-level imports of a watched package."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    public = None
    bound: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in _WATCHED:
                    continue
                if alias.asname:
                    bound[alias.asname] = f"import {alias.name} as {alias.asname}"
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = f"import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] in _WATCHED:
            for alias in node.names:
                if alias.name != "*":
                    name = alias.asname or alias.name
                    spelled = f"{alias.name} as {alias.asname}" if alias.asname else alias.name
                    bound[name] = f"from {node.module} import {spelled}"
        elif isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets):
            try:
                public = set(ast.literal_eval(node.value))
            except (ValueError, TypeError):
                public = None
    if public is not None:
        bound = {name: line for name, line in bound.items() if name in public}
    return {name: line for name, line in bound.items() if not name.startswith("_")}


def _bound_here(tree: ast.Module) -> set[str]:
    """Names the file binds itself (imports, assignments, definitions, parameters)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def star_bindings(tree: ast.Module | None, path: str) -> list[tuple[int, str]]:
    """[(line of the star import, import statement)] binding names this file uses but never binds."""
    if tree is None or not path or path.startswith("<"):
        return []
    stars = [node for node in tree.body if isinstance(node, ast.ImportFrom)
             and any(alias.name == "*" for alias in node.names)
             and (node.level or (node.module and node.module.split(".")[0] not in _WATCHED))]
    if not stars:
        return []
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    wanted = used - _bound_here(tree)
    found: list[tuple[int, str]] = []
    folder = Path(path).resolve().parent
    for star in stars:
        module_file = _module_file(folder, star.module or "", star.level)
        if module_file is None:
            continue
        try:
            source = module_file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for name, statement in _exported_imports(source).items():
            if name in wanted:
                found.append((star.end_lineno, statement))
                wanted.discard(name)
    return found


def _by_line(bindings: list[tuple[int, str]]) -> dict[int, list[str]]:
    by_line: dict[int, list[str]] = {}
    for line, statement in bindings:
        by_line.setdefault(line, []).append(statement)
    return by_line


def _suffix(statements: list[str]) -> str:
    return "".join(f"; {statement}" for statement in statements)


def bound_text(text: str, bindings: list[tuple[int, str]]) -> str:
    """`text` with each binding's import appended to its star import's last line."""
    lines = text.split("\n")
    for line, statements in _by_line(bindings).items():
        lines[line - 1] = _with_suffix(lines[line - 1], _suffix(statements))
    return "\n".join(lines)


def _with_suffix(line: str, suffix: str) -> str:
    body, cr = (line[:-1], "\r") if line.endswith("\r") else (line, "")
    return body + suffix + cr


def unbound_text(migrated: str, bindings: list[tuple[int, str]]) -> str | None:
    """The migrated text without the appended imports, or None when one cannot be found."""
    for statements in _by_line(bindings).values():
        suffix = _suffix(statements)
        if suffix not in migrated:
            return None
        migrated = migrated.replace(suffix, "", 1)
    return migrated
