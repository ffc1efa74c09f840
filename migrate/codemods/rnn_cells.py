"""`tf.nn.rnn_cell.*` and `tf.contrib.rnn`'s cells -> estimator_bridge.compat.rnn_cell (TF 1.15's cells).

Why: `tf.compat.v1.nn.rnn_cell` raises on TF 2.21 with Keras 3, and tf.contrib.rnn is gone, yet the
cells TF 2.21 ships keep TF 1.15's variable names and numbers (oracle fixture contrib/rnn_cells).
tf.contrib.crf is TF 1.15's pure-Python CRF over those cells (oracle fixture contrib/contrib_crf).
"""

from migrate.codemods.registry import Codemod
from migrate.tables.rnn_cells import RNN_CELLS

CODEMOD = Codemod(
    name="RnnCellsToBridge",
    description="Replace tf.nn.rnn_cell / tf.contrib.rnn cells and tf.contrib.crf by the bridge's own implementations in estimator_bridge.compat.",
    order=22,
    table=RNN_CELLS,
)
