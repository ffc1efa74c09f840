"""`tf = import_tf(...)`, `def f(tf)`: TensorFlow reached through a name no import binds, which no rewrite follows.

The codemod rewrites names bound by imports (and module aliases of them, migrate/names.py). Some
programs get the module from a helper instead (`tf = import_tf(verbose=...)`, RLlib's
`tf = try_import_tf()`) or as a parameter (`def get_estimator(self, tf): ... tf.ConfigProto()`).
Every TF 1.x name used through such a `tf` stays as written and raises AttributeError on
TensorFlow 2.21; without this check nothing would say so.

This check finds, in each function (and at module level), a plain assignment of a call's result to
`tf` or `tensorflow` (and, in a file that has one, a parameter of that name) when that scope binds the
name by no import, and reports the names used through
it that TensorFlow 2.21 lacks: one MIG305 per binding, at the first such use, naming each of them and
the `tf.compat.v1` spelling where TF 2 kept it. It does not rewrite them: the call could return
anything (a TF 2 module, `tf.compat.v1`), and the user's fix is one line (`import tensorflow as tf`
or `tf = tf.compat.v1`), after which the codemod rewrites them all.
"""

from __future__ import annotations

import ast
import re

from migrate.existence import exists

NAMES = ("tf", "tensorflow")
# cheap gate: a file with no `tf = something(` line needs no walk
_CANDIDATE = re.compile(r"^\s*(?:tf|tensorflow)\s*=\s*[\w.]+\s*\(", re.MULTILINE)
SHOWN = 8


def candidate(output: str) -> bool:
    """Whether `output` has a `tf = f(...)` line at all (the walk is skipped otherwise)."""
    return _CANDIDATE.search(output) is not None


def _scopes(tree: ast.Module):
    """The module and every function, each with the statements of its own scope (not nested defs)."""
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _own_nodes(scope: ast.AST):
    """Nodes of `scope`'s own body, not descending into nested functions, classes or lambdas."""
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    pending = [node for node in scope.body if not isinstance(node, nested)]
    while pending:
        node = pending.pop(0)
        yield node
        pending.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, nested))


def _binds(function: ast.AST, name: str) -> bool:
    """Whether a nested function binds `name` itself (then its uses are not the enclosing scope's)."""
    arguments = function.args
    if any(arg.arg == name for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs
           + [a for a in (arguments.vararg, arguments.kwarg) if a is not None]):
        return True
    for node in _own_nodes(function) if not isinstance(function, ast.Lambda) else ():
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (alias.asname or alias.name).split(".")[0] == name for alias in node.names):
            return True
    return False


def _closure_uses(scope: ast.AST, name: str):
    """`name.x` attribute nodes in functions nested in `scope` that do not bind `name` themselves
    (bert-as-service's `def gen():` inside `input_fn_builder(self, socks, tf, sink)`)."""
    pending = [child for child in ast.iter_child_nodes(scope)]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if _binds(node, name):
                continue
            values = {id(inner.value) for inner in ast.walk(node) if isinstance(inner, ast.Attribute)}
            for inner in ast.walk(node):
                if isinstance(inner, ast.Attribute) and id(inner) not in values:
                    chain = _chain(inner)
                    if chain is not None and chain[0] == name:
                        yield inner
            continue
        pending.extend(ast.iter_child_nodes(node))


def _callee(call: ast.Call) -> str:
    func = call.func
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return ".".join(reversed(parts))


def _chain(node: ast.Attribute) -> tuple[str, list[str]] | None:
    parts = []
    value: ast.AST = node
    while isinstance(value, ast.Attribute):
        parts.append(value.attr)
        value = value.value
    if not isinstance(value, ast.Name):
        return None
    return value.id, list(reversed(parts))


def findings(tree: ast.Module, output: str) -> list[tuple[int, int, str, str]]:
    """(output line, column, message, hint) for each call-bound `tf` whose uses TF 2.21 lacks."""
    if not candidate(output):
        return []
    found = []
    # A parameter named `tf` is TensorFlow only in a file that gets the module from a call and passes it
    # on (bert-as-service); elsewhere it may be anything (tests/migrate/test_final_check.py: `def f(tf)`).
    passes_module = any(isinstance(node, ast.Assign) and len(node.targets) == 1
                        and isinstance(node.targets[0], ast.Name) and node.targets[0].id in NAMES
                        and isinstance(node.value, ast.Call) for node in ast.walk(tree))
    if not passes_module:
        return []
    for scope in _scopes(tree):
        bindings: dict[str, str] = {}  # name -> how it is bound (for the message)
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = scope.args
            for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
                if arg.arg in NAMES:
                    bindings[arg.arg] = f"is a parameter of `{scope.name}`"
        callees: dict[str, str] = {}
        imported: set[str] = set()
        uses: dict[str, list[ast.Attribute]] = {}
        seen_inner: set[int] = set()
        for node in _own_nodes(scope):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
            elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                  and node.targets[0].id in NAMES and isinstance(node.value, ast.Call)):
                bindings.setdefault(node.targets[0].id, f"is bound by the call `{_callee(node.value)}(...)`")
                callees.setdefault(node.targets[0].id, _callee(node.value))
            elif isinstance(node, ast.Attribute) and id(node) not in seen_inner:
                inner = node.value
                while isinstance(inner, ast.Attribute):
                    seen_inner.add(id(inner))
                    inner = inner.value
                chain = _chain(node)
                if chain is not None and chain[0] in NAMES:
                    uses.setdefault(chain[0], []).append(node)
        for name, how in bindings.items():
            if name in imported:
                continue
            missing: dict[str, ast.Attribute] = {}
            every = uses.get(name, []) + [use for use in _closure_uses(scope, name) if id(use) not in seen_inner]
            for use in sorted(every, key=lambda n: (n.lineno, n.col_offset)):
                _, parts = _chain(use)
                if isinstance(use.ctx, ast.Store):
                    parts = parts[:-1]
                dotted = "tensorflow." + ".".join(parts) if parts else ""
                if not parts or not dotted:
                    continue
                verdict = exists(dotted)
                if verdict.exists:
                    continue
                missing.setdefault("tf." + ".".join(parts), use)
            if not missing:
                continue
            first = min(missing.values(), key=lambda n: (n.lineno, n.col_offset))
            listed = ", ".join(f"`{spelled}`" for spelled in missing)
            renames = []
            for spelled in missing:
                compat = "tensorflow.compat.v1." + spelled[len("tf."):]
                if exists(compat).exists:
                    renames.append(f"`{spelled}` -> `tf.compat.v1.{spelled[len('tf.'):]}`")
            side = f", then call `{callees[name]}(...)` for its side effects only" if name in callees else ""
            hint = (f"bind it by an import in this scope (`import tensorflow as {name}`{side}) and run "
                    f"estimator-migrate again: then each name is rewritten")
            if renames:
                more = f" (and {len(renames) - SHOWN} more)" if len(renames) > SHOWN else ""
                hint += "; by hand: " + "; ".join(renames[:SHOWN]) + more
            found.append((first.lineno, first.col_offset,
                          f"`{name}` {how}, not "
                          f"an import of tensorflow, so the codemod rewrote nothing used through it, and these do not exist in "
                          f"TensorFlow 2.21: {listed}",
                          hint))
    return found
