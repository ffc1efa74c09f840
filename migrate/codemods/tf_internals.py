"""TensorFlow internal modules that moved (training_ops -> gen_training_ops) -> their current module."""

from migrate.codemods.registry import Codemod
from migrate.tables.internals import INTERNALS

CODEMOD = Codemod(
    name="TFInternalsMoved",
    description="Point imports and uses of moved TensorFlow internal modules at their current module.",
    order=24,
    table=INTERNALS,
)
