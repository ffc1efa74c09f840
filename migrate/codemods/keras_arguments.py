"""Keras 2 keyword spellings that Keras 3 rejects (`Adam(lr=...)` -> `Adam(learning_rate=...)`)."""

from migrate.codemods.base import TableRewrite
from migrate.tables.keras import KERAS


class KerasArgumentSpellings(TableRewrite):
    DESCRIPTION = "Rename Keras 2 optimizer keywords to their Keras 3 names."
    TABLE = KERAS
