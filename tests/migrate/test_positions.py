"""migrate/positions.py gives the start libcst's PositionProvider gives, for every node kind the
findings are reported on, over every fixture, legacy example and corpus-like program."""

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import PositionProvider

from migrate.positions import starts

ROOT = Path(__file__).parents[2]
SOURCES = sorted((ROOT / "tests" / "migrate" / "fixtures").rglob("*.py")) + sorted((ROOT / "legacy_examples").rglob("*.py"))
KINDS = (cst.Name, cst.Attribute, cst.Call, cst.SimpleStatementLine, cst.Subscript)


class _Nodes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, KINDS):
            self.found.append(node)
        return True


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_starts_are_position_providers_starts(source: Path):
    module = cst.parse_module(source.read_text())
    collector = _Nodes()
    module.visit(collector)
    expected = cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    located = starts(module, collector.found)
    assert len(located) == len(collector.found)
    for node in collector.found:
        start = expected[node].start
        assert located[id(node)] == (start.line, start.column), cst.Module([]).code_for_node(node)[:80]


def test_crlf_tabs_and_continuation_lines():
    text = "import tensorflow as tf\r\nif x:\r\n\tz = f(a,\r\n\t      tf.contrib.b)  # c\r\n"
    module = cst.parse_module(text)
    collector = _Nodes()
    module.visit(collector)
    expected = cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert starts(module, collector.found) == {id(n): (expected[n].start.line, expected[n].start.column)
                                               for n in collector.found}
