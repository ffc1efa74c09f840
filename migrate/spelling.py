"""Which TF1 references must be spelled `tf.compat.v1.X` (the rule behind TF1NamesToCompatV1).

Kept apart from the codemod because the spelling of every other rewrite also needs it: a TF2
target that a TF1 reader would take for its TF1 namesake (`tf.summary.scalar`) is written as
`tf.compat.v2.X`, so that migrating the output again changes nothing.
"""

from __future__ import annotations

import libcst as cst

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


def tf2_spelling(target: str) -> str:
    """`tensorflow.compat.v2.X` for a TF2 target whose plain spelling reads as TF1, else `target`."""
    if target.startswith("tensorflow.") and not is_already_compat(target) \
            and compat_lookup(target, target, None) is not None:
        return "tensorflow.compat.v2." + target[len("tensorflow."):]
    return target
