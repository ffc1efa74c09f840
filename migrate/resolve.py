"""Pure name logic: canonical spellings of qualified names and longest-prefix table lookup.

No libcst here: the codemods pass in the qualified names libcst computed, this module says which
table entry (if any) owns them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from migrate.tables.aliases import CANONICAL_PREFIXES


def _strip(name: str, prefix: str) -> str | None:
    """The rest of `name` after `prefix` on a dot boundary ('' when equal), else None."""
    if name == prefix:
        return ""
    if name.startswith(prefix + "."):
        return name[len(prefix):]
    return None


_PREFIXES_LONGEST_FIRST = sorted(CANONICAL_PREFIXES, key=len, reverse=True)


@lru_cache(maxsize=65536)
def canonical(name: str) -> str:
    """Map every known spelling of a TensorFlow name to one key (`tensorflow.compat.v1.X` -> `tensorflow.X`).

    Memoised: the codemods ask for the same few hundred names tens of thousands of times per tree."""
    for _ in range(4):  # aliases can chain: tensorflow.compat.v1.keras -> tensorflow.keras -> keras
        for prefix in _PREFIXES_LONGEST_FIRST:
            rest = _strip(name, prefix)
            if rest is not None:
                name = CANONICAL_PREFIXES[prefix] + rest
                break
        else:
            return name
    return name


@dataclass(frozen=True)
class Match:
    """A table hit: `key` owns the canonical name; `hops` trailing attributes follow the key."""

    key: str
    entry: object
    hops: int


def longest_prefix(name: str, table: Mapping[str, object]) -> Match | None:
    """The entry whose key is `name` or its longest dotted prefix."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        if key in table:
            return Match(key, table[key], len(parts) - end)
    return None


def is_already_compat(raw_name: str) -> bool:
    """True when the source spelled the name through tensorflow.compat.v1/v2 (left alone by compat rewrites)."""
    return raw_name.startswith(("tensorflow.compat.v1.", "tensorflow.compat.v2.")) or raw_name in (
        "tensorflow.compat.v1", "tensorflow.compat.v2")
