"""Compare migrate/names.py with libcst's scope analysis on every Name and Attribute of files.

Usage: python -m migrate.names_audit PATH... (files or directories of .py files)
Prints one line per disagreement and a summary; exit 1 when any. The tests run it over the
fixtures; over real code and installed packages it is how the equivalence was measured.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import libcst as cst
from libcst.metadata import QualifiedNameSource, ScopeProvider

from migrate.names import ModuleNames


class _Nodes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.CSTNode] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.found.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.found.append(node)


def disagreements(text: str) -> tuple[int, list[tuple[str, set, set]]]:
    """(nodes compared, [(code, libcst's names, ours)]) for one module."""
    try:
        module = cst.parse_module(text)
        tree = ast.parse(text)
    except (cst.ParserSyntaxError, SyntaxError, ValueError, RecursionError):
        return 0, []
    scopes = cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    ours = ModuleNames(module, text, tree)
    nodes = _Nodes()
    module.visit(nodes)
    found = []
    for node in nodes.found:
        scope = scopes.get(node)
        expected = set() if scope is None else {
            q.name for q in scope.get_qualified_names_for(node) if q.source == QualifiedNameSource.IMPORT}
        got = ours.import_names(node)
        if expected != got:
            found.append((cst.Module([]).code_for_node(node)[:70], expected, got))
    return len(nodes.found), found


def main(argv: list[str]) -> int:
    files = [p for arg in argv for p in (sorted(Path(arg).rglob("*.py")) if Path(arg).is_dir() else [Path(arg)])]
    compared = bad = 0
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        count, found = disagreements(text)
        compared += count
        bad += len(found)
        for code, expected, got in found[:5]:
            print(f"{path}: {code!r}: libcst {sorted(expected)} ours {sorted(got)}")
    print(f"{len(files)} files, {compared} Name/Attribute nodes, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
