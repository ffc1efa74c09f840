"""Every other TF1 name -> `tf.compat.v1` (code already written against tensorflow.compat.v1 is left alone)."""

from __future__ import annotations

import libcst as cst

from migrate.codemods.base import TableRewrite
from migrate.compat_v1 import compat_lookup
from migrate.resolve import Match


class TF1NamesToCompatV1(TableRewrite):
    DESCRIPTION = "Spell TF1-only names (and calls whose meaning changed in TF2) as tf.compat.v1.X."

    @classmethod
    def lookup(cls, canonical_name: str, raw_name: str, call: cst.Call | None) -> Match | None:
        return compat_lookup(canonical_name, raw_name, call)
