"""Keras 2 keyword spellings that Keras 3 rejects (`Adam(lr=...)` -> `Adam(learning_rate=...)`)."""

from migrate.codemods.registry import Codemod
from migrate.tables.keras import KERAS, KERAS_UNSUPPORTED

CODEMOD = Codemod(
    name="KerasArgumentSpellings",
    description="Rename Keras 2 optimizer keywords to their Keras 3 names.",
    order=24,
    table=KERAS,
    unsupported=KERAS_UNSUPPORTED,
)
