"""Shapes of table entries (pure data types; the tables themselves are plain dicts of these)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Mapping


class Target(str, enum.Enum):
    """Which installed library a replacement name must resolve in (checked by tests/migrate)."""

    TENSORFLOW = "tensorflow"
    BRIDGE = "estimator_bridge"


@dataclass(frozen=True)
class Replacement:
    """Replace a reference to a TF1 name with `target` (a full dotted name).

    `rename_kwargs` renames keyword arguments of calls; a call using one of `unsupported_kwargs`
    is not rewritten and becomes a finding instead; `default_args` (source text) are used when
    the call has no arguments at all (`always_record_summaries()` -> `record_if(True)`).
    `positional`: how many leading positional arguments the target takes in the TF1 order (None:
    all); later ones are passed by the keyword of the TF1 parameter named in `signature`
    (codemods/call_arguments.py), so that they cannot land on another parameter of the target.
    `module`: key and target are importable modules, so `import KEY [as x]` becomes
    `import TARGET [as x]` (a module statement binds what it bound before).
    """

    target: str
    rename_kwargs: Mapping[str, str] = field(default_factory=dict)
    unsupported_kwargs: tuple[str, ...] = ()
    default_args: tuple[str, ...] = ()
    signature: tuple[str, ...] = ()
    positional: int | None = None
    module: bool = False

    @property
    def library(self) -> Target:
        return Target.BRIDGE if self.target.startswith("estimator_bridge.") else Target.TENSORFLOW


@dataclass(frozen=True)
class CompatibleCall:
    """A TF1 function whose TF2 namesake behaves the same for some calls.

    A call with at most `positional` positional arguments and keywords only from `keywords` keeps
    `tf.X`; any other call, or a reference that is not called, becomes `tf.compat.v1.X`.
    """

    positional: int
    keywords: frozenset[str]


@dataclass(frozen=True)
class Unsupported:
    """A name that is reported, never rewritten: finding `code`, a message and a hint."""

    code: str
    message: str
    hint: str
