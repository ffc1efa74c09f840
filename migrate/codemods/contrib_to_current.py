"""`tf.contrib` data, summary, initializer, regularizer and TPU helpers -> current TensorFlow."""

from migrate.codemods.registry import Codemod
from migrate.tables.contrib import CONTRIB, UNSUPPORTED

CODEMOD = Codemod(
    name="ContribHelpersToCurrent",
    description="Replace tf.contrib helpers that have a current equivalent.",
    order=23,
    table=CONTRIB,
    unsupported=UNSUPPORTED,
)
