"""docs/reliability.md's large-tree numbers are the recorded JSON's, written by a committed
command (`python -m bench.migrate_docs`), never typed in by hand."""

from __future__ import annotations

import json

from bench import migrate_docs


def test_the_documented_large_tree_numbers_are_the_recorded_ones():
    results = json.loads(migrate_docs.LARGE_TREES.read_text())
    expected = migrate_docs.large_trees_cell(results)
    document = migrate_docs.DOC.read_text()
    assert migrate_docs.replace_cell(document, expected) == document, \
        "docs/reliability.md is out of date: run `python -m bench.migrate_docs`"


def test_every_recorded_tree_is_named_in_the_documented_cell():
    results = json.loads(migrate_docs.LARGE_TREES.read_text())
    cell = migrate_docs.large_trees_cell(results)
    for name, tree in results["trees"].items():
        assert f"`{name}`" in cell and f"{tree['files']} files" in cell
