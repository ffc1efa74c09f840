"""`tf.nn.rnn_cell.*` and `tf.contrib.rnn`'s cells -> estimator_bridge.compat.rnn_cell (TF 1.15's cells).

Before this, tf.contrib.rnn cells were MIG301 and tf.nn.rnn_cell names went to tf.compat.v1.nn.rnn_cell,
which raises on TF 2.21 with Keras 3 (MIG305): every TF 1.x RNN file stayed broken (heldout5: Tacotron,
Tacotron-2, BERT-BiLSTM-CRF-NER's lstm_crf_layer.py, tutorials). The cells TF 2.21 ships keep TF 1.15's
variable names and numbers (oracle fixture contrib/rnn_cells). tf.contrib.crf (BERT+CRF taggers) is TF 1.15's
pure-Python CRF over those cells (oracle fixture contrib/contrib_crf).
"""

from migrate.codemods.registry import Codemod
from migrate.tables.rnn_cells import RNN_CELLS

CODEMOD = Codemod(
    name="RnnCellsToBridge",
    description="Replace tf.nn.rnn_cell / tf.contrib.rnn cells and tf.contrib.crf by TF 1.15's code in estimator_bridge.compat.",
    order=22,
    table=RNN_CELLS,
)
