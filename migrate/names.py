"""Which imports a libcst reference goes through, computed from CPython's `ast` instead of libcst's
ScopeProvider (which cost ~40% of a migration: a second and third full walk of the CST).

The codemods ask one question of a reference (`tf.contrib.tpu.X`, `TPUEstimator`, `x.run`): the
qualified names it has through imports (`TableRewrite.import_names`), and two follow-ups: which
accesses an import binding has (to drop dead aliases) and which a plain assignment has (Keras
compile sites). The answers must be libcst's, byte for byte, so this module reproduces libcst's
scope rules rather than CPython's where they differ: names are resolved per scope over all
bindings (class scopes invisible to nested scopes, `global`/`nonlocal` redirect), a bare name is
resolved among the bindings before it in its own scope (else the parent's), a dotted reference
through the longest dotted import prefix in scope, and the qualified names come from the import
statement exactly as `libcst.metadata.ImportAssignment` spells them.

Only names bound by some import in the module can have such names, so only those are tracked.
The `ast` nodes are matched to libcst nodes by position: one code generation records the start of
every libcst `Name` of a tracked name (migrate/positions.py), and ast gives positions in bytes,
converted to characters. tests/migrate/test_names.py compares every answer with libcst's over the
fixtures, and bench/names_audit.py over real code and installed packages.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections import deque
from typing import Iterable, NamedTuple

import libcst as cst

from migrate.positions import starts, starts_and_skippable

_LINES = re.compile(r"\r\n|\r|\n")
_DEFINITION = re.compile(r"(?:async[ \t]+)?(?:def|class)[ \t]+")
_BUILTIN = object()   # marker binding for a builtin name


class Scope:
    __slots__ = ("kind", "parent", "assignments", "overwrites")

    def __init__(self, kind: str, parent: "Scope | None") -> None:
        self.kind = kind
        self.parent = parent if parent is not None else self
        self.assignments: dict[str, list[Binding]] = {}
        self.overwrites: dict[str, Scope] = {}


class Binding:
    __slots__ = ("name", "scope", "order", "statement", "store")

    def __init__(self, name: str, scope: Scope, order: tuple, statement=None, store=None) -> None:
        self.name = name
        self.scope = scope
        self.order = order          # where libcst's count has passed it (end of the assigning node)
        self.statement = statement  # the ast Import/ImportFrom for import bindings
        self.store = store          # the ast node that binds it otherwise (Name, arg, def...)


class Reference:
    """An ast Name of a tracked name: where it is, and libcst's view of it."""
    __slots__ = ("node", "scope", "store", "top", "access_k", "access_name", "bindings_cache")

    def __init__(self, node: ast.Name, scope: Scope, store: bool, top) -> None:
        self.node = node
        self.scope = scope
        self.store = store
        self.top = top              # libcst's "top-level attribute" enclosing the name
        self.access_k = 0           # attributes of the access node above the name (0: the name)
        self.access_name = node.id


def _dotted(node) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _head(node):
    while isinstance(node, ast.Attribute):
        node = node.value
    return node


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Analysis:
    """Scopes, bindings and references of the tracked names of one module."""

    def __init__(self, tree: ast.Module, tracked: set[str], text: str) -> None:
        self.tracked = tracked
        self.module = Scope("module", None)
        self.builtins = Scope("builtins", None)
        self.module.parent = self.builtins
        self.references: dict[tuple[int, int], Reference] = {}   # (line, char column) -> reference
        self.params: dict[tuple[int, int], tuple[str, Scope]] = {}  # params, def and class names
        self.imports: dict[tuple[int, int], tuple[ast.AST, Scope]] = {}
        self.string_accesses: list[tuple[str, Scope]] = []
        self.statement_scopes: dict[tuple[int, int], Scope] = {}   # where each statement runs
        self._lines = _LINES.split(text)
        self._store_order: dict[int, tuple] = {}   # id(ast Name stored) -> where libcst counts it
        self._visit_body(tree.body, self.module)
        for reference in self.references.values():
            if not reference.store:
                self._access_node(reference)

    # ---- positions -------------------------------------------------------------------------
    def position(self, node) -> tuple[int, int]:
        """(line, column in characters) of an ast node (ast gives UTF-8 byte columns)."""
        line, column = node.lineno, node.col_offset
        text = self._lines[line - 1] if line - 1 < len(self._lines) else ""
        if not text.isascii():
            column = len(text.encode("utf-8")[:column].decode("utf-8", "replace"))
        return line, column

    def end(self, node) -> tuple[int, int]:
        return node.end_lineno, node.end_col_offset  # order only: bytes are fine (same line compare)

    # ---- bindings ----------------------------------------------------------------------------
    def target_scope(self, scope: Scope, name: str) -> Scope:
        while name in scope.overwrites:
            scope = self.next_visible_parent(scope, scope.overwrites[name])
        return scope

    def bind(self, scope: Scope, name: str, order, statement=None, store=None) -> None:
        target = self.target_scope(scope, name)
        target.assignments.setdefault(name, []).append(Binding(name, target, order, statement, store))

    def _bind_import(self, node, scope: Scope) -> None:
        self.imports[self.position(node)] = (node, scope)
        order = self.end(node)
        for alias in node.names:
            if alias.name == "*":
                return
            if alias.asname:
                names = [alias.asname]
            else:
                parts = alias.name.split(".")
                names = [".".join(parts[:end]) for end in range(len(parts), 0, -1)]
            for name in names:
                self.bind(scope, name, order, statement=node)

    # ---- walk (libcst's ScopeVisitor order of scopes) -------------------------------------------
    def _visit_body(self, body, scope: Scope) -> None:
        for statement in body:
            self.statement_scopes[self.position(statement)] = scope
            self._visit(statement, scope, None)

    def _visit(self, node, scope: Scope, top) -> None:
        kind = type(node)
        if kind is ast.Name:
            if node.id in self.tracked:
                store = type(node.ctx) is ast.Store
                if store:
                    self.bind(scope, node.id, self._store_order.get(id(node)) or self.end(node), store=node)
                self.references[self.position(node)] = Reference(node, scope, store, top)
            return
        if kind is ast.Attribute:
            self._visit(node.value, scope, node if top is None else top)
            return
        if kind is ast.Call:
            self._visit(node.func, scope, None)
            for arg in node.args:
                self._visit(arg, scope, None)
            for keyword in node.keywords:
                self._visit(keyword.value, scope, None)
            return
        if kind in (ast.Import, ast.ImportFrom):
            self._bind_import(node, scope)
            return
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
            args = node.args
            if kind is not ast.Lambda:
                if node.name in self.tracked:
                    self.bind(scope, node.name, self.end(node), store=node)
                    self._definition(node, scope)
                for decorator in node.decorator_list:
                    self._visit(decorator, scope, None)
                if node.returns is not None:
                    self._annotation(node.returns, scope)
            for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
                self._visit(default, scope, None)
            every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
            inner = Scope("function", scope)
            for arg in every:
                if arg.annotation is not None and kind is not ast.Lambda:
                    self._annotation(arg.annotation, scope)
                if arg.arg in self.tracked:
                    self.bind(inner, arg.arg, (0, 0), store=arg)
                    self.params[self.position(arg)] = (arg.arg, inner)
            if kind is ast.Lambda:
                self._visit(node.body, inner, top)
            else:
                self._visit_body(node.body, inner)
            return
        if kind is ast.ClassDef:
            if node.name in self.tracked:
                self.bind(scope, node.name, self.end(node), store=node)
                self._definition(node, scope)
            for child in node.decorator_list + node.bases:
                self._visit(child, scope, None)
            for keyword in node.keywords:
                self._visit(keyword.value, scope, None)
            self._visit_body(node.body, Scope("class", scope))
            return
        if kind in _COMPREHENSIONS:
            generators = node.generators
            self._visit(generators[0].iter, scope, top)
            inner = Scope("comprehension", scope)
            for index, generator in enumerate(generators):
                self._mark_store_order(generator.target, (0, 0))  # targets precede every use inside
                self._visit(generator.target, inner, top)
                if index:
                    self._visit(generator.iter, inner, top)
                for condition in generator.ifs:
                    self._visit(condition, inner, top)
            if kind is ast.DictComp:
                self._visit(node.key, inner, top)
                self._visit(node.value, inner, top)
            else:
                self._visit(node.elt, inner, top)
            return
        if kind is ast.Global:
            if scope.kind != "module":
                for name in node.names:
                    scope.overwrites[name] = self.module
            return
        if kind is ast.Nonlocal:
            for name in node.names:
                scope.overwrites[name] = scope.parent
            return
        if kind is ast.For or kind is ast.AsyncFor:
            self._mark_store_order(node.target, self.end(node.target))
        elif kind is ast.AnnAssign:
            self._annotation(node.annotation, scope)
            if node.value is not None:
                self._visit(node.value, scope, None)
            self._visit(node.target, scope, None)
            return
        elif kind is ast.ExceptHandler:
            if node.name and node.name in self.tracked:
                self.bind(scope, node.name, self.end(node), store=node)
        elif kind in (ast.Assign, ast.AugAssign, ast.With, ast.AsyncWith, ast.NamedExpr):
            order = self.end(node) if kind is not ast.With and kind is not ast.AsyncWith else None
            if order is not None:
                for target in (node.targets if kind is ast.Assign else [node.target]):
                    self._mark_store_order(target, order)
            else:
                for item in node.items:
                    if item.optional_vars is not None:
                        self._mark_store_order(item.optional_vars, self.end(item.optional_vars))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)):
                continue
            if isinstance(child, ast.stmt):
                # a statement of an if/for/while/with/try block runs in the enclosing scope (libcst's
                # too); without this, statement_scope() answered None inside any block (the
                # keras_to_tpu_model conversion under `if tpu:` of the 2019 notebooks was not recorded)
                self.statement_scopes[self.position(child)] = scope
            self._visit(child, scope, top if isinstance(child, ast.expr) else None)

    def _definition(self, node, scope: Scope) -> None:
        """Where the name of a def/class is (libcst has a Name there; ast only the keyword's place)."""
        line, column = self.position(node)
        text = self._lines[line - 1] if line - 1 < len(self._lines) else ""
        keyword = _DEFINITION.match(text, column)
        if keyword is not None:
            self.params[(line, keyword.end())] = (node.name, scope)

    def _mark_store_order(self, target, order) -> None:
        for node in ast.walk(target):
            if type(node) is ast.Name:
                self._store_order[id(node)] = order

    def _annotation(self, node, scope: Scope) -> None:
        """An annotation: names in it, and in its strings (libcst parses string annotations)."""
        for child in ast.walk(node):
            if isinstance(child, ast.Constant) and isinstance(child.value, str):
                try:
                    parsed = ast.parse(child.value, mode="eval")
                except (SyntaxError, ValueError):
                    continue
                for name in ast.walk(parsed):
                    if isinstance(name, ast.Name) and name.id in self.tracked:
                        self.string_accesses.append((name.id, scope))
        self._visit(node, scope, None)

    # ---- libcst's lookups -----------------------------------------------------------------------
    def next_visible_parent(self, scope: Scope, first: Scope | None = None) -> Scope:
        """libcst's `scope._next_visible_parent`: `first` (default the parent), skipping class scopes."""
        parent = first if first is not None else scope.parent
        while parent.kind == "class":
            parent = parent.parent
        return parent

    def contains(self, scope: Scope, name: str) -> bool:
        while True:
            if scope.kind == "builtins":
                return hasattr(builtins, name)
            if scope.kind != "module" and name in scope.overwrites:
                scope = scope.overwrites[name]
                continue
            if scope.assignments.get(name):
                return True
            scope = self.next_visible_parent(scope)

    def resolve(self, scope: Scope, name: str, from_scope: Scope) -> list:
        while True:
            if scope.kind == "builtins":
                return [_BUILTIN] if hasattr(builtins, name) else []
            if scope.kind != "module" and name in scope.overwrites:
                scope = self.next_visible_parent(scope, scope.overwrites[name])
                continue
            if name in scope.assignments:
                return scope.assignments[name]
            scope = self.module.parent if scope.kind == "module" else self.next_visible_parent(scope)

    def _access_node(self, reference: Reference) -> None:
        top = reference.top
        if top is None or _head(top) is not reference.node:
            return
        dotted = _dotted(top)
        if dotted is None:
            return
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            name = ".".join(parts[:end])
            if self.contains(reference.scope, name):
                reference.access_k = end - 1
                reference.access_name = name
                return

    @staticmethod
    def qualified(binding, full_name: str) -> set[str]:
        """libcst's ImportAssignment.get_qualified_names_for, from the ast import statement."""
        statement = getattr(binding, "statement", None)
        if statement is None:
            return set()
        module = ""
        if isinstance(statement, ast.ImportFrom):
            module = "." * statement.level + (statement.module or "")
        results = set()
        for alias in statement.names:
            if alias.name == "*":
                continue
            parts = alias.name.split(".")
            for real_name in [".".join(parts[:i]) for i in range(len(parts), 0, -1)]:
                as_name = real_name
                if module and module.endswith("."):
                    real_name = f"{module}{real_name}"
                elif module:
                    real_name = f"{module}.{real_name}"
                if alias.asname:
                    as_name = alias.asname
                if full_name.startswith(as_name):
                    remaining = full_name.split(as_name, 1)[1]
                    if remaining and not remaining.startswith("."):
                        continue
                    remaining = remaining.lstrip(".")
                    results.add(f"{real_name}.{remaining}" if remaining else real_name)
                    break
        return results

    def full_name_path(self, scope: Scope, full_name: str, store_node=None) -> set[str]:
        prefix = full_name
        assignments: list = []
        while prefix:
            if self.contains(scope, prefix):
                assignments = self.resolve(scope, prefix, scope)
                break
            index = prefix.rfind(".")
            prefix = None if index == -1 else prefix[:index]
        if store_node is not None and any(getattr(b, "store", None) is store_node for b in assignments):
            return set()  # libcst: the node is this assignment's own (a LOCAL name)
        names: set[str] = set()
        for binding in assignments:
            names |= self.qualified(binding, full_name)
        return names

    def access_path(self, reference: Reference) -> set[str]:
        scope, name = reference.scope, reference.access_name
        where = (reference.node.lineno, reference.node.col_offset)
        assignments = self.resolve(scope, name, scope)
        previous = [b for b in assignments
                    if b is _BUILTIN or b.scope is not scope or scope.kind == "comprehension" or b.order <= where]
        if not previous and assignments and scope.kind != "builtins":
            parent = scope.parent
            previous = self.resolve(parent, name, scope) if parent is not scope else []
        names: set[str] = set()
        for binding in previous:
            if binding is not _BUILTIN:
                names |= self.qualified(binding, binding.name)
        return names


class ModuleAlias:
    """`name = <dotted reference>` whose uses `name.attr...` stand for `<reference>.attr...`
    (`summary = tf.contrib.summary`; `summary.scalar(...)` is `tf.contrib.summary.scalar(...)`)."""
    __slots__ = ("name", "store", "value", "targets", "uses", "bare", "complete")

    def __init__(self, name: str, store: tuple[int, int], value: ast.expr, targets: set[str]) -> None:
        self.name = name
        self.store = store          # position of the assigned Name
        self.value = value          # the ast reference assigned
        self.targets = targets      # its qualified names (through imports)
        self.uses: list[tuple[int, int]] = []   # positions of the alias Name in `name.attr...` uses
        self.bare: list[tuple[int, int]] = []   # positions of its other reads (`f(name)`, `name[0]`, ...)
        self.complete = True        # every access of the binding is such a use (no bare `name`)


class ImportSurvey(NamedTuple):
    """What one walk of CPython's tree finds for the names: the names bound by imports
    (`tracked`), those bound by imports of the watched packages (`watched`), and the assignments
    of a plain name to a name or attribute (module alias candidates), and the import statements
    themselves (`statements`: the partial parse reads what each name is bound to)."""
    tracked: set
    watched: frozenset
    assignments: list
    statements: list = []


# The fields that hold statements (or the handlers and cases that hold them), in `_fields` order.
_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")


def _statements(tree: ast.Module):
    """`ast.walk(tree)` restricted to statements (and the handlers and cases between them), in
    its order: imports and assignments are statements, and the walk looks at no expression
    (most of a tree's nodes; as final_check.statements)."""
    pending = deque([tree])
    while pending:
        node = pending.popleft()
        for name in _BLOCKS:
            block = getattr(node, name, None)
            if type(block) is list:
                pending.extend(block)
        yield node


def import_survey(tree: ast.Module, watch: frozenset[str]) -> ImportSurvey:
    tracked = set()
    watched = set()   # names bound by imports of the `watch` packages
    assignments = []
    statements = []
    for node in _statements(tree):
        if type(node) is ast.Import:
            statements.append(node)
            for alias in node.names:
                top = alias.name.split(".")[0]
                tracked.add(alias.asname or top)
                if top in watch:
                    watched.add(alias.asname or top)
        elif type(node) is ast.ImportFrom:
            statements.append(node)
            from_watched = node.level == 0 and (node.module or "").split(".")[0] in watch
            for alias in node.names:
                if alias.name != "*":
                    tracked.add(alias.asname or alias.name.split(".")[0])
                    if from_watched:
                        watched.add(alias.asname or alias.name)
        elif type(node) is ast.Assign and type(node.value) in (ast.Attribute, ast.Name) \
                and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            assignments.append(node)
    return ImportSurvey(tracked, frozenset(watched), assignments, statements)


class ModuleNames:
    """Import names of the references of one libcst module (the module must not change meanwhile).

    `follow(qualified_name)`: plain assignments of a reference with such names to a name bound
    nowhere else in its scope (a function or the module, not a class) are followed, so that
    `name.attr` has the names `<qualified>.attr` (module aliases the name tables cannot see).

    `line_names`: when given, `skippable` holds the ids of the expressions and statement lines that
    contain no Name of `line_names` or of the module aliases and no import (found in the same code
    generation as the positions; None otherwise). It may be a function of `watched`, the names bound by imports of
    the `watch` packages (anywhere in the module), computed in the same walk as the imports.
    `imports`: `import_survey(tree, watch)` when the caller has it (the engine's partial parse
    needed it before libcst parsed the module: migrate/partial_parse.py)."""

    def __init__(self, module: cst.Module, text: str, tree: ast.Module | None = None, follow=None,
                 line_names=None, watch: frozenset[str] = frozenset(), imports: ImportSurvey | None = None) -> None:
        self.module = module
        self.tree = tree if tree is not None else ast.parse(text)
        self.text = text
        tracked, watched, assignments = (imports if imports is not None else import_survey(self.tree, watch))[:3]
        self.tracked = tracked
        self.watched = frozenset(watched)
        self.analysis = _Analysis(self.tree, tracked, text)
        self.aliases: dict[tuple[int, int], ModuleAlias] = {}       # store position -> alias
        self._alias_uses: dict[tuple[int, int], ModuleAlias] = {}   # use position -> alias
        self._bare_alias_uses: dict[tuple[int, int], ModuleAlias] = {}   # bare read position -> alias
        if follow is not None and assignments:
            self._find_aliases(assignments, follow)
        aliased = {alias.name for alias in self.aliases.values()}
        self.alias_names = frozenset(aliased)
        wanted = lambda node: (type(node) is cst.Name and (  # noqa: E731
            node.value in tracked or node.value in aliased)) or type(node) in (cst.Import, cst.ImportFrom)
        self.skippable: set[int] | None = None
        self.every_start: dict[int, tuple[int, int]] | None = None  # (with line_names) every node's start
        if callable(line_names):
            line_names = line_names(self.watched)
        if line_names is None:
            self.positions = starts(module, wanted=wanted)
        else:
            self.positions, self.skippable, self.every_start = starts_and_skippable(
                module, wanted, frozenset(line_names) | self.alias_names)
        self._by_position = {position: key for key, position in self.positions.items()}
        self._answers: dict[int, tuple[cst.CSTNode, frozenset[str]]] = {}   # import_names, by node

    def _find_aliases(self, assignments: list[ast.Assign], follow) -> None:
        analysis = self.analysis
        candidates = []
        for node in assignments:
            target, value = node.targets[0], node.value
            dotted = _dotted(value)
            if dotted is None or target.id in self.tracked or dotted.split(".")[0] not in self.tracked:
                continue
            reference = analysis.references.get(analysis.position(_head(value)))
            if reference is None or reference.store:
                continue
            if reference.access_k == dotted.count("."):
                names = analysis.access_path(reference)
            else:
                names = analysis.full_name_path(reference.scope, dotted)
            if names and all(follow(name) for name in names):
                candidates.append((target, value, names))
        if not candidates:
            return
        names_of = {target.id for target, _, _ in candidates}
        local = _Analysis(self.tree, names_of, self.text)
        found: dict[int, ModuleAlias] = {}   # id(binding) -> alias
        bindings = {}
        for target, value, names in candidates:
            reference = local.references.get(local.position(target))
            if reference is None or not reference.store:
                continue
            scope = local.target_scope(reference.scope, target.id)
            own = scope.assignments.get(target.id, [])
            if scope.kind == "class" or len(own) != 1 or own[0].store is not target:
                continue  # bound twice (or in a class body, read through `self.`): not an alias
            alias = ModuleAlias(target.id, local.position(target), value, names)
            found[id(own[0])] = alias
            bindings[id(own[0])] = own[0]
        if not found:
            return
        for reference in local.references.values():
            if reference.store:
                continue
            name = reference.node.id
            resolved = local.resolve(reference.scope, name, reference.scope)
            for binding in resolved:
                alias = found.get(id(binding))
                if alias is None:
                    continue
                where = (reference.node.lineno, reference.node.col_offset)
                top = reference.top
                if not (binding.scope is not reference.scope or binding.order <= where
                        or reference.scope.kind == "comprehension") \
                        or top is None or _head(top) is not reference.node or len(resolved) != 1:
                    alias.complete = False   # a bare `name`, a `del`, or a use it may not reach
                    if len(resolved) == 1:
                        alias.bare.append(local.position(reference.node))
                else:
                    alias.uses.append(local.position(reference.node))
        for name, scope in local.string_accesses:
            for binding in local.resolve(scope, name, scope):
                if id(binding) in found:
                    found[id(binding)].complete = False
        for alias in found.values():
            self.aliases[alias.store] = alias
            for use in alias.uses:
                self._alias_uses[use] = alias
            for use in alias.bare:
                self._bare_alias_uses[use] = alias

    def alias_at(self, name: cst.Name) -> ModuleAlias | None:
        """The followed alias that `name` (an assigned Name) binds, if any."""
        return self.aliases.get(self.positions.get(id(name))) if name.value in self.alias_names else None

    def bare_alias_use(self, name: cst.Name) -> ModuleAlias | None:
        """The alias that `name` reads other than as the head of `name.attr...` (`f(slim)`), if any:
        such a read keeps the alias assignment, so it is a use left as written."""
        if name.value not in self.alias_names:
            return None
        return self._bare_alias_uses.get(self.positions.get(id(name)))

    def alias_use_heads(self, alias: ModuleAlias) -> list[int | None]:
        """ids of the libcst Names of the alias in its `name.attr...` uses (None: not placed)."""
        return [self._by_position.get(use) for use in alias.uses]

    def _alias_names(self, head: cst.Name, full_name: str) -> set[str]:
        alias = self._alias_uses.get(self.positions.get(id(head)))
        if alias is None:
            return set()
        rest = full_name[len(head.value):]
        return {target + rest for target in alias.targets}

    def _reference(self, name: cst.Name) -> Reference | None:
        position = self.positions.get(id(name))
        return None if position is None else self.analysis.references.get(position)

    def import_names(self, node: cst.CSTNode) -> set[str]:
        """The qualified names through imports of `node` (a fresh set: callers may change it).

        Answered once per node: the fused pass's handlers ask about the same reference many times.
        The node is kept with its answer, so
        that its id cannot be reused by another node while the answer is cached."""
        cached = self._answers.get(id(node))
        if cached is not None and cached[0] is node:
            return set(cached[1])
        names = self._import_names(node)
        self._answers[id(node)] = (node, frozenset(names))
        return names

    def _import_names(self, node: cst.CSTNode) -> set[str]:
        if type(node) is cst.Name:
            if node.value not in self.tracked:
                return set()  # (a bare alias name is not followed: only `name.attr` uses are)
            reference = self._reference(node)
            if reference is None:
                param = self.analysis.params.get(self.positions.get(id(node)))
                return set() if param is None else self.analysis.full_name_path(param[1], param[0])
            if reference.store:
                return self.analysis.full_name_path(reference.scope, node.value, reference.node)
            if reference.access_k == 0:
                return self.analysis.access_path(reference)
            return self.analysis.full_name_path(reference.scope, node.value)
        if type(node) is cst.Attribute:
            parts, head, pure = [], node, True
            while True:
                if type(head) is cst.Attribute:
                    parts.append(head.attr.value)
                    head = head.value
                elif type(head) is cst.Call:
                    pure, head = False, head.func
                elif type(head) is cst.Subscript:
                    pure, head = False, head.value
                else:
                    break
            if type(head) is not cst.Name:
                return set()
            if head.value not in self.tracked:
                if head.value in self.alias_names:
                    return self._alias_names(head, ".".join([head.value, *reversed(parts)]))
                return set()
            reference = self._reference(head)
            if reference is None or reference.store:
                return set()
            full_name = ".".join([head.value, *reversed(parts)])
            if pure and reference.access_k == len(parts):
                return self.analysis.access_path(reference)
            return self.analysis.full_name_path(reference.scope, full_name)
        return set()

    def import_accesses(self, statement: cst.CSTNode, bound: str) -> list[tuple[int | None, int]] | None:
        """(id of the libcst head Name or None, attributes of the access node) of every access of
        the binding of `bound` made by the import `statement`; None when the statement is unknown."""
        found = self.analysis.imports.get(self.positions.get(id(statement)))
        if found is None:
            return None
        node, scope = found
        analysis = self.analysis
        bindings = [b for b in analysis.resolve(scope, bound, scope) if getattr(b, "statement", None) is node]
        if not bindings:
            return None
        accesses: list[tuple[int | None, int]] = []
        for reference in analysis.references.values():
            if reference.store or reference.access_name != bound:
                continue
            where = (reference.node.lineno, reference.node.col_offset)
            resolved = analysis.resolve(reference.scope, bound, reference.scope)
            if any(b in resolved and (b.scope is not reference.scope or b.order <= where
                                      or reference.scope.kind == "comprehension") for b in bindings):
                head = self._by_position.get(analysis.position(reference.node))
                accesses.append((head, reference.access_k))
        for name, scope_of in analysis.string_accesses:
            if name == bound and any(b in analysis.resolve(scope_of, bound, scope_of) for b in bindings):
                accesses.append((None, 0))
        return accesses

    def store_accesses(self, target: cst.Name, candidates: Iterable[cst.CSTNode]) -> bool | None:
        """Does an access of the assignment to `target` (a plain name) start where one of
        `candidates` starts? (libcst: `scope.assignments[name]` whose node is `target`, `.references`.)
        None when `target` cannot be placed."""
        candidates = list(candidates)
        located = starts(self.module, [target, *candidates])
        analysis = _Analysis(self.tree, {target.value}, self.text)
        reference = analysis.references.get(located.get(id(target)))
        if reference is None or not reference.store:
            return None
        binding = next((b for b in reference.scope.assignments.get(target.value, []) if b.store is reference.node), None)
        if binding is None:
            return False
        wanted = {located[id(node)] for node in candidates if id(node) in located}
        for other in analysis.references.values():
            if other.store or other.access_name != target.value:
                continue
            where = (other.node.lineno, other.node.col_offset)
            resolved = analysis.resolve(other.scope, target.value, other.scope)
            if binding in resolved and (binding.scope is not other.scope or binding.order <= where
                                        or other.scope.kind == "comprehension"):
                if analysis.position(other.node) in wanted:
                    return True
        return False

    def statement_scope(self, statement: cst.CSTNode) -> Scope | None:
        """The scope a (small) statement runs in, as an identity to compare (libcst: its scope)."""
        located = starts(self.module, [statement])
        return self.analysis.statement_scopes.get(located.get(id(statement)))
