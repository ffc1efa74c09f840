"""The codemod registry: every codemod is one `Codemod` record, declared in a module of its own.

A record says what the codemod matches and what it does, and nothing runs it but the single
fused pass (codemods/fused.py), which reads every record of the pipeline:
- `table` / `lookup`: the qualified names it claims (canonical key -> Replacement); the fused pass
  rewrites a claimed reference to the entry's target (tables are disjoint, tests/migrate/test_tables.py;
  `fallback` codemods are asked last, so they only see names no other codemod claimed);
- `unsupported`: names it reports instead of rewriting (canonical key -> Unsupported);
- `leave_call` / `leave_attribute` / `leave_statement`: structural rewrites, `handler(rewrite,
  original, updated)` returning the replacement node or None (not this codemod's node); `rewrite`
  is the running pass, which spells names, records consumed references and resolves names;
  `leave_header` likewise on `if`/`elif`/`while`/`for` nodes, for their header expression (a
  simple statement line's handlers never see `if 'lr' in history.history:`);
- `claimed_by_call` / `claimed_by_statement`: the reference nodes a structural rewrite replaces
  (so the findings pass does not report them); `call_findings(rewrite, call)` /
  `statement_findings(rewrite, line)`: the findings it reports there, as (node, code, message, hint);
- `start(rewrite, module)`: per-module state the handlers read back as `rewrite.state[name]`
  (e.g. which calls feed `model.compile`), computed when the pass enters a module it is on for;
- what the `ast` pre-filter (migrate/prefilter.py) must know to never clear a file this codemod
  would touch: `structural_keys` (canonical names its structural rewrite acts on), `source_words`
  / `text_trigger` (text that triggers it whatever the names), `ast_trigger` (a predicate on
  `ast.Attribute` nodes);
- `applies(text)`: whether the codemod is on for a module at all (None: always);
- `reach(text)`: which statement lines of a module the codemod can act on, as the names such a line
  must hold besides the names bound by TensorFlow imports (and module aliases of them): `frozenset()`
  when it acts only through those names, `{"value"}` for `x.shape[i].value`, None when it may act on
  any line (a method call on any receiver). The fused pass skips every line no codemod on for the
  module can reach (most lines of a real file: tests/migrate/test_line_pruning.py checks that
  skipping changes nothing). Undeclared: a codemod with only tables reaches the watched names, one
  with structural handlers any line.

Adding a codemod = one module in this package defining `CODEMOD = Codemod(...)` plus its fixture
pair and its test module (tests/migrate/codemods/); `discover()` finds it.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Mapping

from migrate.resolve import longest_prefix
from migrate.tables.entries import Replacement

# `order`: when a codemod is asked relative to the others (lower first; the first claim wins, and
# a table may hold a prefix of another table's key). Structural rewrites match the TF1 spelling, so
# they come before renames (10-19); renames 20-49; rewrites of what renames leave 50-89; the
# fallback (TF1 names -> tf.compat.v1) at FALLBACK claims whatever nobody else did.
FALLBACK = 90

Handler = Callable[..., object]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity (pipelines key caches)
class Codemod:
    name: str
    description: str
    order: int
    table: Mapping[str, object] = field(default_factory=dict)
    lookup: Callable | None = None
    unsupported: Mapping[str, object] = field(default_factory=dict)
    leave_call: Handler | None = None
    leave_attribute: Handler | None = None
    leave_statement: Handler | None = None
    leave_header: Handler | None = None
    claimed_by_call: Callable[..., Iterable] | None = None
    claimed_by_statement: Callable[..., Iterable] | None = None
    call_findings: Callable[..., Iterable[tuple]] | None = None
    statement_findings: Callable[..., Iterable[tuple]] | None = None
    start: Callable[..., object] | None = None
    structural_keys: frozenset[str] = frozenset()
    source_words: tuple[str, ...] = ()
    text_trigger: Callable[[str], bool] | None = None
    ast_trigger: Callable[[object], bool] | None = None
    applies: Callable[[str], bool] | None = None
    tf1_only: bool = False  # off for files written against TF2 (engine.tf2_marker)
    reach: Callable[[str], frozenset[str] | None] | None = None

    def claim(self, canonical_name: str, raw_name: str, call) -> object | None:
        """The Match that owns this reference in this codemod, or None."""
        if self.lookup is not None:
            return self.lookup(canonical_name, raw_name, call)
        if not self.table:
            return None
        match = longest_prefix(canonical_name, self.table)
        return match if match is not None and isinstance(match.entry, Replacement) else None

    def on_for(self, text: str) -> bool:
        return self.applies is None or _applies(self, text)

    def line_reach(self, text: str) -> frozenset[str] | None:
        """The names besides the watched ones that a statement line of `text` must hold for this
        codemod to act on it; None: any line (see `reach`)."""
        if self.reach is not None:
            return self.reach(text)
        handlers = (self.leave_call, self.leave_attribute, self.leave_statement, self.leave_header,
                    self.claimed_by_call,
                    self.claimed_by_statement, self.call_findings, self.statement_findings)
        return frozenset() if not any(handlers) else None


@lru_cache(maxsize=256)
def _applies(codemod: Codemod, text: str) -> bool:
    """`codemod.applies(text)`, asked by the pre-filter and by the pass for the same text (a
    string's hash is cached by Python: a repeated question costs a dictionary lookup)."""
    return bool(codemod.applies(text))


def watched_names_only(text: str) -> frozenset[str]:
    """`reach` of a codemod whose handlers act only on references through TensorFlow imports."""
    return frozenset()


def discover() -> tuple[Codemod, ...]:
    """Every `CODEMOD` of this package's modules, in pipeline order (order, then name)."""
    import migrate.codemods as package
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        codemod = getattr(module, "CODEMOD", None)
        if isinstance(codemod, Codemod):
            found.append(codemod)
    return tuple(sorted(found, key=lambda c: (c.order, c.name)))


def unsupported_table(pipeline: Iterable[Codemod]) -> dict[str, object]:
    """The names the pipeline reports instead of rewriting (all codemods' `unsupported`)."""
    table: dict[str, object] = {}
    for codemod in pipeline:
        table.update(codemod.unsupported)
    return table
