"""The text_pairs data (vocabulary, config, every layout) in a folder of its own, for the BoolQ program."""

from __future__ import annotations

from pathlib import Path

from testbed.generators import text_pairs


def write(out: Path) -> None:
    text_pairs.write(out)
