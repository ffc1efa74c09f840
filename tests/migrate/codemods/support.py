"""LibCST-style before/after assertions for one codemod of the registry run alone.

`assert_codemod("Name", before, after, findings=[...])` runs the fused pass over a pipeline of
that one codemod (to its fixed point: a second pass must change nothing) and compares the output
text and the findings (`line:column CODE`). The family fixtures (tests/migrate/fixtures/) run the
whole pipeline; these show what each codemod does by itself.
"""

from __future__ import annotations

import textwrap

import libcst as cst

from migrate.codemods import PIPELINE
from migrate.engine import transform


def _source(text: str) -> str:
    """Test text as written in a triple-quoted string: dedented, without the first newline."""
    return textwrap.dedent(text).removeprefix("\n")


def codemod(name: str):
    return next(c for c in PIPELINE if c.name == name)


def run(name: str, before: str) -> tuple[str, list[str]]:
    before = _source(before)
    module, findings = transform(cst.parse_module(before), "<test>", (codemod(name),), verify=True, source=before)
    return module.code, [f"{f.location.line}:{f.location.column + 1} {f.code}" for f in findings]


def assert_codemod(name: str, before: str, after: str, findings: list[str] | None = None) -> None:
    output, found = run(name, before)
    assert output == _source(after)
    assert found == (findings or [])


def assert_unchanged(name: str, source: str, findings: list[str] | None = None) -> None:
    assert_codemod(name, source, source, findings)
