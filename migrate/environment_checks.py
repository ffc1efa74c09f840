"""Lines of the output that fail because of where the program runs, not because of TensorFlow.

Colab TPU notebooks of 2018-2020 began with `'grpc://' + os.environ['COLAB_TPU_ADDR']`: the
variable was set by Colab's TPU Node runtime, the only place those notebooks ran. Anywhere else (a
CPU or GPU machine, a TPU VM, a test run of the migrated notebook) the read raises KeyError before
any model code runs, and nothing in the name tables can see it: MIG210 says so on that line. Reads
that cannot raise are left alone: under `if 'COLAB_TPU_ADDR' in os.environ:` (also through a name
holding that test: `HAS_COLAB_TPU = 'COLAB_TPU_ADDR' in os.environ`, then `if IS_COLAB and
HAS_COLAB_TPU:`), inside a
`try` whose handler catches KeyError, and `os.environ.get(...)`.

Read with CPython's `ast` on the migrated text (like the final name check), located in the
original's lines.
"""

from __future__ import annotations

import ast

from migrate.final_check import line_map
from migrate.findings import Finding, Location

VARIABLE = "COLAB_TPU_ADDR"
_CAUGHT = frozenset({"KeyError", "LookupError", "Exception", "BaseException"})


def _mentions(node: ast.AST, guards: dict[str, bool]) -> bool:
    """The test names the variable, or a name holding a membership test of it (`guards`)."""
    return any((type(part) is ast.Constant and part.value == VARIABLE)
               or (type(part) is ast.Name and part.id in guards) for part in ast.walk(node))


def _negated(test: ast.expr, guards: dict[str, bool]) -> bool:
    """`'X' not in os.environ` / `not ...` (or a guard name holding it): the test is true where
    the variable is missing."""
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
        return not _negated(test.operand, guards)
    if type(test) is ast.Name and test.id in guards:
        return guards[test.id]
    return type(test) is ast.Compare and any(type(op) is ast.NotIn for op in test.ops)


def _guard_names(tree: ast.Module) -> dict[str, bool]:
    """{name: negated} for names assigned a membership test of the variable
    (`HAS_COLAB_TPU = 'COLAB_TPU_ADDR' in os.environ`)."""
    guards: dict[str, bool] = {}
    for node in ast.walk(tree):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            value = node.value
            if type(value) is ast.Compare and any(type(op) in (ast.In, ast.NotIn) for op in value.ops) \
                    and _mentions(value, {}):
                guards[node.targets[0].id] = _negated(value, {})
    return guards


def _catches_key_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(getattr(t, "id", None) in _CAUGHT or getattr(t, "attr", None) in _CAUGHT for t in types)


def _is_unguarded_read(node: ast.AST) -> bool:
    """`<...>environ['COLAB_TPU_ADDR']` read (not assigned, not deleted)."""
    if type(node) is not ast.Subscript or type(node.ctx) is not ast.Load:
        return False
    environ = node.value
    named = (type(environ) is ast.Attribute and environ.attr == "environ") or \
        (type(environ) is ast.Name and environ.id == "environ")
    return named and type(node.slice) is ast.Constant and node.slice.value == VARIABLE


def unguarded_reads(tree: ast.Module) -> list[ast.Subscript]:
    """The reads of the variable that raise KeyError where it is not set."""
    found: list[ast.Subscript] = []
    guards = _guard_names(tree)

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.If, ast.While, ast.IfExp)) and _mentions(node.test, guards):
            # `if 'COLAB_TPU_ADDR' in os.environ:` guards its body; `... not in ...` its else part
            visit(node.test)
            body = node.body if isinstance(node.body, list) else [node.body]
            orelse = node.orelse if isinstance(node.orelse, list) else [node.orelse]
            for part in body if _negated(node.test, guards) else orelse:
                visit(part)
            return
        if isinstance(node, ast.Try) and any(_catches_key_error(h) for h in node.handlers):
            for part in node.handlers + node.orelse + node.finalbody:
                visit(part)
            return
        if _is_unguarded_read(node):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def environment_findings(original: str, output: str, tree: ast.Module | None) -> list[Finding]:
    """MIG210 at each unguarded read of COLAB_TPU_ADDR in `output` (`tree`: its CPython tree),
    located in `original`'s lines."""
    if tree is None or VARIABLE not in output:
        return []
    reads = unguarded_reads(tree)
    if not reads:
        return []
    mapping = line_map(original, output)
    findings = []
    for read in reads:
        line = mapping[read.lineno - 1] if 0 < read.lineno <= len(mapping) else read.lineno
        findings.append(Finding(
            Location(line, read.col_offset), "MIG210",
            f"`os.environ['{VARIABLE}']` is set only by Colab's TPU Node runtime: anywhere else (a CPU or "
            "GPU machine, a TPU VM, a test run of this code) this line raises KeyError before the model runs",
            "find the TPU with `tf.distribute.cluster_resolver.TPUClusterResolver()` (on a TPU VM: "
            "tpu='local') and fall back to the default strategy when none is found, or read the address "
            f"with `os.environ.get('{VARIABLE}')` and branch on it"))
    return findings
