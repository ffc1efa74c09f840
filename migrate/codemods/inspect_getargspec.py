"""`inspect.getargspec(f)` -> `estimator_bridge.compat.py_inspect.getargspec(f)`.

Python 3.11 removed `inspect.getargspec`; TF 1.x-era programs call it (a 2018 TF-Slim fine-tuning
trainer: `inspect.getargspec(image_preprocessing_fn).args` inside its tf.data map), and the
migrated program stopped with AttributeError. `getfullargspec` is no drop-in: it returns 7 fields
(programs unpack 4) and calls the third `varkw`, not `keywords`; the helper returns Python 3.10's
`ArgSpec`. Only calls through the module a file imports as `inspect` are rewritten.
"""

from __future__ import annotations

import re

from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod

HELPER = "estimator_bridge.compat.py_inspect.getargspec"
_IMPORTS_INSPECT = re.compile(r"^[ \t]*import[ \t]+(?:[\w.]+[ \t]*,[ \t]*)*inspect[ \t]*(?:,|#|$)", re.MULTILINE)
_CALLS = re.compile(r"\binspect\s*\.\s*getargspec\s*\(")


def _applies(text: str) -> bool:
    return _CALLS.search(text) is not None and _IMPORTS_INSPECT.search(text) is not None


def leave_call(rewrite, original_node, updated_node):
    if dotted_name(original_node.func) != "inspect.getargspec":
        return None
    return updated_node.with_changes(func=rewrite.spell(HELPER))


CODEMOD = Codemod(
    name="InspectGetargspec",
    description="`inspect.getargspec(f)` (removed in Python 3.11) -> estimator_bridge.compat.py_inspect.getargspec.",
    order=60,
    leave_call=leave_call,
    text_trigger=_applies,
    applies=_applies,
    reach=lambda text: frozenset({"getargspec"}),
)
