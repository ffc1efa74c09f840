"""`tf.contrib` data, summary, initializer, regularizer and TPU helpers -> current TensorFlow."""

from migrate.codemods.base import TableRewrite
from migrate.tables.contrib import CONTRIB


class ContribHelpersToCurrent(TableRewrite):
    DESCRIPTION = "Replace tf.contrib helpers that have a current equivalent."
    TABLE = CONTRIB
