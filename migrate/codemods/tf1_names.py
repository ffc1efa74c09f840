"""Every other TF1 name -> `tf.compat.v1` (code already written against tensorflow.compat.v1 is left alone)."""

from __future__ import annotations

import libcst as cst

from migrate.codemods.base import TableRewrite
from migrate.resolve import Match, is_already_compat
from migrate.tables.entries import CompatibleCall, Replacement
from migrate.tables.tf1_compat import COMPATIBLE_CALLS, MOVED_MODULES, MOVED_NAMES

_COMPATIBLE = {name: CompatibleCall(positional, frozenset(keywords))
               for name, (positional, keywords) in COMPATIBLE_CALLS.items()}


def call_fits(call: cst.Call, compatible: CompatibleCall) -> bool:
    """True when `call` passes only arguments that mean the same to the TF1 and the TF2 function."""
    positional = 0
    for arg in call.args:
        if arg.star:
            return False
        if arg.keyword is None:
            positional += 1
        elif arg.keyword.value not in compatible.keywords:
            return False
    return positional <= compatible.positional


def compat_lookup(canonical_name: str, raw_name: str, call: cst.Call | None) -> Match | None:
    """The tf.compat.v1 replacement for a TF1 reference, or None when TF2 means the same."""
    if is_already_compat(raw_name) or not canonical_name.startswith("tensorflow."):
        return None
    parts = canonical_name.split(".")[1:]
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        hops = len(parts) - end
        if key in MOVED_MODULES or key in MOVED_NAMES:
            return Match(f"tensorflow.{key}", Replacement(f"tensorflow.compat.v1.{key}"), hops)
        if key in _COMPATIBLE:
            if hops or (call is not None and call_fits(call, _COMPATIBLE[key])):
                return None
            return Match(f"tensorflow.{key}", Replacement(f"tensorflow.compat.v1.{key}"), hops)
    return None


class TF1NamesToCompatV1(TableRewrite):
    DESCRIPTION = "Spell TF1-only names (and calls whose meaning changed in TF2) as tf.compat.v1.X."

    @classmethod
    def lookup(cls, canonical_name: str, raw_name: str, call: cst.Call | None) -> Match | None:
        return compat_lookup(canonical_name, raw_name, call)
