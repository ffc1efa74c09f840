"""The table machinery of the one pass: match references by qualified name, rewrite them.

`lookup` (given by the fused pass, codemods/fused.py, from the registry) says which Replacement
owns a qualified name. This base:
- resolves every dotted reference (`tf.contrib.tpu.TPUEstimator`, `contrib_tpu.RunConfig`) with
  libcst's scope analysis (qualified names), so aliases and user modules named like TF modules are told apart;
- rewrites `from M import X` statements whose name moves, keeping the bound name (uses unchanged);
- renames call keywords, and leaves calls using an unsupported keyword alone (the findings pass
  reports them);
- adds the imports the new spellings need and removes imports of dead modules left unused.
"""

from __future__ import annotations

import re
from typing import Sequence

import libcst as cst
from dataclasses import dataclass, field
from libcst.metadata import QualifiedNameSource, ScopeProvider

from migrate.codemods.call_arguments import translate, unsupported_keywords  # noqa: F401 (re-exported)
from migrate.codemods.dispatch import FastDispatch
from migrate.codemods.imports import add_after_imports, add_imports, drop_aliases
from migrate.names import ModuleNames
from migrate.spelling import tf2_spelling
from migrate.resolve import Match, canonical
from migrate.contrib_modules import is_tf115_contrib_module
from migrate.tables.aliases import DEAD_MODULES, FOLLOWED_LIVE_MODULES
from migrate.tables.entries import Replacement

# Targets under this prefix need their submodule imported (see `spell`).
_BRIDGE_COMPAT = "estimator_bridge.compat."
# `import tf_slim` does not import its networks: `tf_slim.nets.inception_v3...` needs `import tf_slim.nets`.
_SLIM_NETS = "tf_slim.nets."


def dotted_name(node: cst.CSTNode) -> str | None:
    """`a.b.c` for a pure Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute) and isinstance(node.attr, cst.Name):
        head = dotted_name(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


def import_module_name(node: cst.ImportFrom) -> str | None:
    """Absolute module of a `from` import (None for relative imports)."""
    if node.relative or node.module is None:
        return None
    return dotted_name(node.module)


# Top-level packages whose names the tables talk about; references through anything else skip
# the (costly) qualified-name lookup.
WATCHED_PACKAGES = frozenset({"tensorflow", "tensorflow_estimator", "tensor2tensor", "keras"})


class _ImportBindings(cst.CSTVisitor):
    """Names bound anywhere in a module by imports of WATCHED_PACKAGES (statements only, cheap)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        for small in node.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    full = dotted_name(alias.name) or ""
                    if full.split(".")[0] in WATCHED_PACKAGES:
                        bound = alias.asname.name if alias.asname else None
                        self.names.add(bound.value if isinstance(bound, cst.Name) else full.split(".")[0])
            elif isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                module = dotted_name(small.module) or ""
                if module.split(".")[0] in WATCHED_PACKAGES and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        bound = alias.asname.name if alias.asname else alias.name
                        if isinstance(bound, cst.Name):
                            self.names.add(bound.value)
        return False


def chain_head(node: cst.BaseExpression) -> str | None:
    """`tf` for `tf.a.b`; None when the chain does not start with a name."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def module_bindings(module: cst.Module) -> dict[str, str]:
    """Module-level `import a.b as c` bindings: {'a.b': 'c'}; `import a.b` binds {'a': 'a'}."""
    bindings: dict[str, str] = {}

    def scan(statements: Sequence[cst.CSTNode]) -> None:
        for statement in statements:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Import):
                        for alias in small.names:
                            full = dotted_name(alias.name)
                            if full is None:
                                continue
                            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                                bindings.setdefault(full, alias.asname.name.value)
                            else:
                                top = full.split(".")[0]
                                bindings.setdefault(top, top)
            elif isinstance(statement, cst.Try):
                scan(statement.body.body)
            elif isinstance(statement, cst.If):
                scan(statement.body.body)

    scan(module.body)
    return bindings


@dataclass
class PassContext:
    """What the engine tells a pass about the module: its file name, and in `scratch` its source
    text ("source") and CPython tree ("ast") when the engine has them."""

    filename: str = "<string>"
    scratch: dict = field(default_factory=dict)


class TableRewrite(FastDispatch):
    """Rewrite references that `lookup` claims (the fused pass gives `lookup`).

    A plain CSTTransformer (not a libcst codemod command: importing libcst.codemod pulls in
    libcst.matchers, ~1 s of start-up per process on this machine, for nothing this pass uses)."""

    def __init__(self, context: PassContext) -> None:
        super().__init__()
        self.context = context
        self.start_state()

    def transform_module(self, module: cst.Module) -> cst.Module:
        return module.visit(self)


    def start_state(self) -> None:
        """The per-module bookkeeping (one instance migrates one module)."""
        self._replace: dict[int, tuple[int, str]] = {}  # id(reference) -> (hops, target)
        self._calls: dict[int, cst.Call] = {}  # id(func node) -> its call
        self._call_entries: dict[int, Replacement] = {}  # id(original call) -> entry (hops 0)
        self._bindings: dict[str, str] = {}
        self._identifiers: set[str] = set()
        self._watched: set[str] = set()   # names bound by imports of TensorFlow & co.
        self._needed: set[tuple[str, str | None]] = set()  # imports the new spellings need
        self._consumed: set[int] = set()  # ids of name nodes whose reference was rewritten away
        self._dead_aliases: list[tuple[cst.CSTNode, str]] = []  # (import statement, bound name)
        self._renamed_from_modules: set[str] = set()
        self._keep: list[cst.CSTNode] = []    # keeps ids stable while the transform runs
        self._consumed_depth: dict[int, int] = {}  # id(head Name) -> attributes consumed above it
        self.names: ModuleNames | None = None
        self._scopes = None
        self._module: cst.Module | None = None
        self._source_text = ""                # the module's source (names it already uses)
        self._source_tests: dict = {}         # test -> its answer on the source (source_has)
        self._alias_assigns: dict[int, tuple] = {}  # id(original Assign) -> (alias, Assign in the output)
        self.removed_alias_values: set[int] = set()  # ids of the values of alias assignments removed
        self._served_lines: list[cst.BaseStatement] = []  # `name = <the bridge's TF1 contrib module>` lines

    # ---- names ---------------------------------------------------------------------------
    def import_names(self, node: cst.CSTNode) -> set[str]:
        """Qualified names of `node` that come from imports (migrate/names.py; libcst's scope
        analysis for the rare module CPython does not parse)."""
        if self.names is not None:
            return self.names.import_names(node)
        scope = self.scope_of(node)
        if scope is None:
            return set()
        return {q.name for q in scope.get_qualified_names_for(node) if q.source == QualifiedNameSource.IMPORT}

    def statement_scope(self, statement: cst.CSTNode):
        """An identity of the scope a small statement runs in (function, class or module)."""
        if self.names is not None:
            return self.names.statement_scope(statement)
        return self.scope_of(statement)

    def scope_of(self, node: cst.CSTNode):
        """libcst's scope of `node` (fallback path only: computed on first use)."""
        if self._scopes is None:
            self._scopes = cst.MetadataWrapper(self._module, unsafe_skip_copy=True).resolve(ScopeProvider)
        return self._scopes.get(node)

    @property
    def source_text(self) -> str:
        """The source of the module being migrated (set when the pass enters it)."""
        return self._source_text

    def source_has(self, test) -> bool:
        """Whether `test` (a compiled pattern, searched, or a predicate on the text) holds for the
        module's source, computed once per module: handlers ask it for every statement or call,
        and searching the whole source each time dominated a migration's cost."""
        answer = self._source_tests.get(test)
        if answer is None:
            answer = self._source_tests[test] = bool(
                test.search(self._source_text) if isinstance(test, re.Pattern) else test(self._source_text))
        return answer

    def source(self, module: cst.Module) -> str:
        """The module's source text (given by the engine, so that no pass re-generates it)."""
        text = self.context.scratch.get("source")
        return text if text is not None else module.code

    # ---- lookup (given by the fused pass) ------------------------------------------------
    @classmethod
    def lookup(cls, canonical_name: str, raw_name: str, call: cst.Call | None) -> Match | None:
        """The Replacement that owns this reference, or None (the reference stays)."""
        raise NotImplementedError

    def match_reference(self, node: cst.CSTNode, call: cst.Call | None) -> Match | None:
        raw = self.import_names(node)
        if not raw:
            return None
        matches = {}
        for name in raw:
            match = self.lookup(canonical(name), name, call)
            matches[name] = match
        distinct = {(m.key, m.hops) if m else None for m in matches.values()}
        if len(distinct) != 1:
            return None  # reached through several imports that disagree: the findings pass reports it
        return next(iter(matches.values()))

    # ---- spelling --------------------------------------------------------------------------
    def spell(self, target: str) -> cst.BaseExpression:
        """An expression for `target`, reusing a module-level import or adding one."""
        target = tf2_spelling(target)
        if target.startswith(_BRIDGE_COMPAT):
            # `import estimator_bridge` does not promise its compat submodules (contrib_helpers,
            # contrib_metrics): import the one the target lives in (it binds `estimator_bridge`
            # too, so later bridge names need no second import line).
            self._needed.add((".".join(target.split(".")[:3]), None))
            self._bindings.setdefault("estimator_bridge", "estimator_bridge")
            return cst.parse_expression(target)
        if target.split(".")[0] == "tf_slim" and not any(
                module.split(".")[0] == "estimator_bridge" for module in self._bindings):
            # tf-slim 1.1.0 runs on current TensorFlow only once `import estimator_bridge` gave its
            # modules the names TF moved (estimator_bridge/compat/slim_support.py): without it
            # `tf_slim.optimize_loss` stops at `ops.Tensor`, batch_norm(is_training=tensor) likewise.
            self._needed.add(("estimator_bridge", None))
            self._bindings["estimator_bridge"] = "estimator_bridge"
        if (target + ".").startswith(_SLIM_NETS) and "tf_slim.nets" not in self._bindings:
            self._needed.add(("tf_slim.nets", None))
            self._bindings["tf_slim.nets"] = "tf_slim.nets"
        for module in sorted(self._bindings, key=len, reverse=True):
            if target == module or target.startswith(module + "."):
                return cst.parse_expression(self._bindings[module] + target[len(module):])
        top, _, rest = target.partition(".")
        if top == "tensorflow" and "tf" not in self._identifiers:
            self._needed.add(("tensorflow", "tf"))
            self._bindings["tensorflow"] = "tf"
            return cst.parse_expression("tf." + rest if rest else "tf")
        self._needed.add((top, None))
        self._bindings[top] = top
        return cst.parse_expression(target)

    # ---- visitors --------------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self._module = node
        self._bindings = module_bindings(node)
        self._source_text = self.source(node)
        self._source_tests = {}
        try:
            self.names = ModuleNames(node, self._source_text, self.context.scratch.get("ast"), follow=_is_followed,
                                     line_names=self.line_names, watch=WATCHED_PACKAGES,
                                     imports=self.context.scratch.get("imports"))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self.names = None  # libcst parses what CPython does not: libcst's own scope analysis
        self._identifiers = {"tf"} if re.search(r"\btf\b", self._source_text) else set()
        if self.names is not None:
            # (from CPython's tree, in the names' own walk) + `summary = tf.contrib.summary`: `summary.x` too
            self._watched = set(self.names.watched) | self.names.alias_names
        else:
            bindings = _ImportBindings()
            node.visit(bindings)
            self._watched = bindings.names

    def line_names(self, watched: frozenset[str]) -> frozenset[str] | None:
        """The names that let this pass act on a statement line (None: it may act on any line).

        This base acts on references whose head is a watched name; the fused pass adds what its
        codemods declare (codemods/fused.py)."""
        return None

    def watched(self, node: cst.BaseExpression) -> bool:
        """Can this reference be TensorFlow's at all (its head name is bound by a watched import)?"""
        return chain_head(node) in self._watched

    def consume(self, node: cst.CSTNode) -> None:
        """Record that the reference `node` (a dotted chain) no longer exists in the output."""
        self._keep.append(node)
        depth = 0
        while isinstance(node, cst.Attribute):
            self._consumed.add(id(node))
            node = node.value
            depth += 1
        self._consumed.add(id(node))
        if isinstance(node, cst.Name):
            self._consumed_depth[id(node)] = max(depth, self._consumed_depth.get(id(node), 0))

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            full = dotted_name(alias.name)
            if full and _is_dead(full):
                bound = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) \
                    else full.split(".")[0]
                self._dead_aliases.append((node, bound))
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        module = import_module_name(node)
        if module is None or isinstance(node.names, cst.ImportStar):
            return False
        for alias in node.names:
            name = dotted_name(alias.name)
            if name and (_is_dead(module) or _is_dead(f"{module}.{name}")):
                bound = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
                self._dead_aliases.append((node, bound))
        return False

    def removable_aliases(self) -> set[str]:
        """Bound names of dead-module imports whose every access was rewritten away."""
        names = set()
        for statement, bound in self._dead_aliases:
            if self.names is not None:
                accesses = self.names.import_accesses(statement, bound)
                if accesses is not None and all(head is not None and self._consumed_depth.get(head, -1) >= depth
                                                for head, depth in accesses):
                    names.add(bound)
                continue
            scope = self.scope_of(statement)
            if scope is None:
                continue
            assignments = [a for a in scope[bound] if getattr(a, "node", None) is statement]
            if assignments and all(id(access.node) in self._consumed
                                   for assignment in assignments for access in assignment.references):
                names.add(bound)
        return names

    # ---- module aliases (`summary = tf.contrib.summary`, names.ModuleAlias) ------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        if self.names is None or len(node.targets) != 1 or type(node.targets[0].target) is not cst.Name:
            return
        alias = self.names.alias_at(node.targets[0].target)
        if alias is not None:
            self._keep.append(node)
            self._alias_assigns[id(node)] = (alias, node, None)

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        found = self._alias_assigns.get(id(original_node))
        if found is not None:
            self._alias_assigns[id(original_node)] = (found[0], found[1], updated_node)
        return updated_node

    def _removable_alias_assigns(self) -> list[tuple[cst.Assign, cst.Assign]]:
        """(original, output) of the alias assignments of a dead module whose every use was
        rewritten away and whose value itself was not: nothing reads them any more.

        An alias of a TF 1.15 contrib module that nothing reads at all goes too, as an unused
        import of it does (`slim = tf.contrib.slim` kept for nothing raised AttributeError on
        TF 2); an alias of a class or function no use reads stays, with its finding."""
        removable = []
        for alias, original, output in self._alias_assigns.values():
            if output is None or not alias.complete or id(original.value) in self._consumed:
                continue
            if not alias.uses and not all(is_tf115_contrib_module(target) for target in alias.targets):
                continue
            if not any(_is_dead(target) for target in alias.targets):
                continue  # an alias of a live module (FOLLOWED_LIVE_MODULES) still imports: left as written
            heads = self.names.alias_use_heads(alias)
            if all(head is not None and self._consumed_depth.get(head, -1) >= 1 for head in heads):
                removable.append((original, output))
        return removable

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        removable = self._removable_alias_assigns()
        if removable:
            for original, _ in removable:
                self.consume(original.value)  # the imports it read may now be unused
                self.removed_alias_values.add(id(original.value))
            updated_node = updated_node.visit(_DropStatements({id(output) for _, output in removable}))
        removable_aliases = self.removable_aliases()
        updated_node = self._serve_kept_contrib_modules(updated_node, removable_aliases)
        updated_node = drop_aliases(updated_node, removable_aliases, _is_dead, tuple(self._renamed_from_modules))
        updated_node = add_imports(updated_node, self._needed)
        if self._served_lines:
            # after the whole import block, the imports it needs included
            self._served_lines[0] = self._served_lines[0].with_changes(leading_lines=[cst.EmptyLine()])
            updated_node = add_after_imports(updated_node, self._served_lines)
        return updated_node

    def _serve_kept_contrib_modules(self, module: cst.Module, removable: set[str]) -> cst.Module:
        """A module-level import of a TF 1.15 contrib module that uses still need -> the bridge's
        TF1-shaped module (`contrib_tpu = estimator_bridge.compat.v1.contrib.tpu`).

        Kept as written it raises ImportError on TF 2.21 and none of the file runs, though TF 1.15
        ran every path that never reached the remaining uses; the bridge's module serves what the
        compat runner serves and fails where a name it lacks is used, as the runner does.
        """
        if _DEFINES_TPU_ESTIMATOR.search(self._source_text):
            return module   # a vendored tpu_estimator.py fork: its internals are reported, to use the bridge's
        top_level = {id(small) for line in self._module.body if isinstance(line, cst.SimpleStatementLine)
                     for small in line.body}
        served: dict[int, dict[str, str]] = {}   # id(import statement) -> {bound name: contrib module}
        for statement, bound in self._dead_aliases:
            if bound in removable or id(statement) not in top_level:
                continue
            for alias in statement.names:
                name = dotted_name(alias.name)
                asname = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else None
                if isinstance(statement, cst.ImportFrom):
                    full = f"{import_module_name(statement)}.{name}"
                    binds = asname or name
                else:
                    full, binds = name, asname
                if binds == bound and is_tf115_contrib_module(full):
                    served.setdefault(id(statement), {})[bound] = full
        whole = {key: names for key, names in served.items()
                 if len(next(s for s, _ in self._dead_aliases if id(s) == key).names) == len(names)}
        if not whole:
            return module
        originals = [small for line in self._module.body if isinstance(line, cst.SimpleStatementLine)
                     for small in line.body if id(small) in whole]
        body = []
        for line in module.body:
            if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
                original = next((o for o in originals if line.body[0].deep_equals(o)), None)
                if original is not None:
                    assigns = [cst.parse_statement(
                        f"{bound} = {cst.Module([]).code_for_node(self.spell(_BRIDGE_TF1 + full[len('tensorflow'):]))}\n")
                        for bound, full in whole[id(original)].items()]
                    self._served_lines.extend(assigns)
                    continue
            body.append(line)
        return module.with_changes(body=body)

    def visit_Call(self, node: cst.Call) -> None:
        self._calls[id(node.func)] = node

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if dotted_name(node) is None:
            return True
        if not self.watched(node):
            return False
        call = self._calls.get(id(node))
        match = self.match_reference(node, call)
        if match is None:
            return False
        entry: Replacement = match.entry
        if match.hops == 0 and unsupported_keywords(entry, call):
            return False
        if match.hops == 0 and call is not None:
            self._call_entries[id(call)] = entry
        inner: cst.CSTNode = node
        for _ in range(match.hops):
            inner = inner.value if isinstance(inner, cst.Attribute) else None
        if isinstance(inner, cst.Attribute) and entry.target != match.key:
            self._keep.append(node)
            self._replace[id(node)] = (match.hops, entry.target)
            self.consume(inner)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        # Bare names come from `from M import X`: the import statement is rewritten instead, but
        # calls still need their keywords translated.
        call = self._calls.get(id(node))
        if call is None or node.value not in self._watched:
            return
        match = self.match_reference(node, call)
        if match is not None and match.hops == 0 and not unsupported_keywords(match.entry, call):
            self._call_entries[id(call)] = match.entry

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        pending = self._replace.get(id(original_node))
        if pending is None:
            return updated_node
        hops, target = pending
        return self._replace_inner(updated_node, hops, target)

    def _replace_inner(self, node: cst.BaseExpression, hops: int, target: str) -> cst.BaseExpression:
        """`node` with its prefix `hops` attributes deep replaced by the spelling of `target`."""
        if hops == 0:
            return self.spell(target).with_changes(lpar=node.lpar, rpar=node.rpar)
        return node.with_changes(value=self._replace_inner(node.value, hops - 1, target))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        entry = self._call_entries.get(id(original_node))
        if entry is None:
            return updated_node
        return updated_node.with_changes(args=translate(entry, updated_node.args))

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(updated_node.body) == 1 and isinstance(updated_node.body[0], cst.Import):
            return self._moved_module_import(updated_node)
        if len(updated_node.body) != 1 or not isinstance(updated_node.body[0], cst.ImportFrom):
            return updated_node
        statement: cst.ImportFrom = updated_node.body[0]
        module = import_module_name(statement)
        if module is None or isinstance(statement.names, cst.ImportStar):
            return updated_node
        kept: list[cst.ImportAlias] = []
        moved: dict[str, list[str]] = {}
        for alias in statement.names:
            name = dotted_name(alias.name)
            bound = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
            raw = f"{module}.{name}"
            match = self.lookup(canonical(raw), raw, None) if name and "." not in name else None
            if match is None or match.entry.target == match.key:
                kept.append(alias)
                continue
            # hops > 0: the table moves a module the name comes from (`from tensorflow.gfile
            # import Exists`: tensorflow.gfile -> tensorflow.compat.v1.gfile), so the name keeps
            # its path below that module.
            target = match.entry.target + canonical(raw)[len(match.key):] if match.hops else match.entry.target
            parent, _, last = tf2_spelling(target).rpartition(".")
            self._renamed_from_modules.add(parent)
            moved.setdefault(parent, []).append(last if last == bound else f"{last} as {bound}")
        if not moved:
            return updated_node
        lines: list[cst.BaseStatement] = []
        if kept:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            lines.append(updated_node.with_changes(body=[statement.with_changes(names=kept)]))
        for parent, names in moved.items():
            if not parent:   # a top-level package (`from tensorflow import keras` -> `import tf_keras as keras`)
                lines.extend(cst.parse_statement(f"import {name}\n") for name in names)
                continue
            lines.append(cst.parse_statement(f"from {parent} import {', '.join(names)}\n"))
        if not kept:
            lines[0] = lines[0].with_changes(
                leading_lines=updated_node.leading_lines, trailing_whitespace=updated_node.trailing_whitespace)
        return cst.FlattenSentinel(lines)


    def _moved_module_import(self, line: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """`import tensorflow.python.training.training_ops [as x]` -> `import <its current module> [as x]`
        for a table entry that moves a whole module (Replacement.module); the statement binds the
        same name (`x`, or `tensorflow`, whose dotted uses the table rewrites), so nothing else changes."""
        statement: cst.Import = line.body[0]
        names = []
        for alias in statement.names:
            full = dotted_name(alias.name)
            match = self.lookup(canonical(full), full, None) if full else None
            if match is not None and match.hops == 0 and match.entry.module and match.entry.target != match.key:
                alias = alias.with_changes(name=cst.parse_expression(match.entry.target))
            names.append(alias)
        return line.with_changes(body=[statement.with_changes(names=names)])


class _DropStatements(FastDispatch):
    """Remove the small statements with the given ids; a line left empty goes, its leading blank
    lines and comments passing to the next statement (a block left empty gets `pass`)."""

    def __init__(self, ids: set[int]) -> None:
        super().__init__()
        self.ids = ids
        self.emptied: set[int] = set()   # lines left without a statement (their block drops them)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        # (libcst makes new nodes as it goes: the ids are those of the tree visited, `original_node`'s)
        body = [small for small, before in zip(updated_node.body, original_node.body) if id(before) not in self.ids]
        if len(body) == len(updated_node.body):
            return updated_node
        if not body:
            emptied = updated_node.with_changes(body=[cst.Pass()])
            self.emptied.add(id(emptied))
            return emptied
        body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(body=body)

    def _statements(self, body) -> tuple[list, list]:
        kept, carried = [], []
        for statement in body:
            if id(statement) in self.emptied:
                carried.extend(statement.leading_lines)
                continue
            if carried:
                statement = statement.with_changes(leading_lines=[*carried, *statement.leading_lines])
                carried = []
            kept.append(statement)
        return kept, carried

    def leave_IndentedBlock(self, original_node, updated_node):
        kept, carried = self._statements(updated_node.body)
        if len(kept) == len(updated_node.body):
            return updated_node
        return updated_node.with_changes(body=kept or [cst.SimpleStatementLine([cst.Pass()], leading_lines=carried)])

    def leave_Module(self, original_node, updated_node):
        kept, carried = self._statements(updated_node.body)
        if len(kept) == len(updated_node.body):
            return updated_node
        return updated_node.with_changes(body=kept, footer=[*carried, *updated_node.footer])


_DEFINES_TPU_ESTIMATOR = re.compile(r"\bclass\s+TPUEstimator\b")
# the compat runner's TF1-shaped `tensorflow`, importable by migrated code
_BRIDGE_TF1 = "estimator_bridge.compat.v1"


def _is_dead(module: str) -> bool:
    return any(module == dead or module.startswith(dead + ".") for dead in DEAD_MODULES)


def _is_followed(module: str) -> bool:
    """A module alias (`name = <module>`) whose `name.attr` uses the tables see as `<module>.attr`."""
    return _is_dead(module) or any(module == live or module.startswith(live + ".") for live in FOLLOWED_LIVE_MODULES)
