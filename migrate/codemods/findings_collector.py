"""Findings: what will not be rewritten, reported at the ORIGINAL line and column.

`FindingCollector` asks the same lookups the codemods use (so it can never disagree with them) and
reports references no codemod claims but a table marks unsupported, calls left alone because of a
keyword without equivalent, and names reached through several imports that disagree. The engine
runs it inside the first rewrite pass (which sees the original module).
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from migrate.codemods.base import dotted_name, unsupported_keywords
from migrate.codemods.registry import Codemod, unsupported_table
from migrate.findings import Finding, Location
from migrate.positions import starts
from migrate.tables.hints import hint_for
from migrate.resolve import canonical, longest_prefix
from migrate.tables.entries import Unsupported


def _argument(name: str) -> str:
    """How a blocked argument is named in a finding: `family=`, or `*args` for one with no place."""
    return f"`{name}`" if name.startswith("*") else f"`{name}=`"


def display(name: str) -> str:
    """`tf.X` for `tensorflow.X` (how users spell it)."""
    return "tf." + name[len("tensorflow."):] if name.startswith("tensorflow.") else name


class FindingCollector:
    """Accumulates findings; `pipeline` are the codemods whose claims decide what is rewritten and
    whose `unsupported` tables what is reported."""

    def __init__(self, pipeline: Sequence[Codemod]) -> None:
        self.pipeline = tuple(pipeline)
        self.unsupported = unsupported_table(self.pipeline)
        self.pending: list[tuple[cst.CSTNode, str, str, str]] = []  # (node, code, message, hint)
        self.handled: set[int] = set()   # func nodes a structural codemod rewrites

    def report(self, node: cst.CSTNode, code: str, message: str, hint: str) -> None:
        self.pending.append((node, code, message, hint))

    def findings(self, module: cst.Module) -> list[Finding]:
        """The findings, located in `module` (the tree the pass visited); one per line, code, message."""
        if not self.pending:
            return []
        located = starts(module, (node for node, _, _, _ in self.pending))
        found, seen = [], set()
        for node, code, message, hint in self.pending:
            line, column = located[id(node)]
            if (line, code, message) not in seen:
                seen.add((line, code, message))
                found.append(Finding(Location(line, column), code, message, hint))
        return once_per_package(sorted(found))

    def claim(self, canonical_name: str, raw: str, call: cst.Call | None):
        for codemod in self.pipeline:
            match = codemod.claim(canonical_name, raw, call)
            if match is not None:
                return match
        return None

    def check(self, node: cst.CSTNode, raw_names: set[str], call: cst.Call | None) -> None:
        if not raw_names or id(node) in self.handled:
            return
        verdicts = {}
        for raw in raw_names:
            name = canonical(raw)
            verdicts[raw] = (name, self.claim(name, raw, call), longest_prefix(name, self.unsupported))
        if len({(v[1].key if v[1] else None, v[2].key if v[2] else None) for v in verdicts.values()}) > 1:
            self.report(node, "MIG204", f"`{dotted_name(node)}` resolves to {', '.join(sorted(raw_names))}",
                        "import the name one way only, so that every spelling means the same")
            return
        name, claim, unsupported = next(iter(verdicts.values()))
        if claim is not None and (unsupported is None or len(claim.key) >= len(unsupported.key)):
            blocked = unsupported_keywords(claim.entry, call) if claim.hops == 0 else []
            if blocked:
                target = display(claim.entry.target)
                self.report(node, "MIG201",
                            f"`{display(claim.key)}` is called with {', '.join(_argument(k) for k in blocked)}, "
                            f"which `{target}` does not accept; call left unchanged",
                            f"drop or translate the argument by hand, then spell the call `{target}`")
            return
        if unsupported is not None:
            entry: Unsupported = unsupported.entry
            # The exact replacement when one is recorded, not the entry's general advice.
            self.report(node, entry.code, entry.message.format(name=display(name)), hint_for(name) or entry.hint)


# Codes about a whole package (TF-Slim, tensor2tensor): what to do is the same at every use, so a
# file gets one finding, at the first use, that counts the others (not one per use).
PACKAGE_CODES = frozenset({"MIG302", "MIG303"})


def once_per_package(findings: list[Finding]) -> list[Finding]:
    """`findings` (sorted) with each PACKAGE_CODES code kept at its first use only, counting the rest."""
    counts: dict[str, int] = {}
    for finding in findings:
        if finding.code in PACKAGE_CODES:
            counts[finding.code] = counts.get(finding.code, 0) + 1
    out, reported = [], set()
    for finding in findings:
        if finding.code not in PACKAGE_CODES:
            out.append(finding)
        elif finding.code not in reported:
            reported.add(finding.code)
            more = counts[finding.code] - 1
            message = finding.message + (f" (first of {more + 1} uses of the package in this file)" if more else "")
            out.append(Finding(finding.location, finding.code, message, finding.hint))
    return out
