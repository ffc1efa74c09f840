"""TF 1.x's RNN cells -> estimator_bridge.compat.rnn_cell (TF 1.15's cells, which TF 2.21 still ships).

`tf.nn.rnn_cell.X` (also `tf.compat.v1.nn.rnn_cell.X`) and `tf.contrib.rnn.X` were the same objects in
TF 1.15 (contrib/rnn/__init__.py star-imported tensorflow/python/ops/rnn_cell.py). On TF 2.21 with
Keras 3 the public `tf.compat.v1.nn.rnn_cell` names raise ("not available with Keras 3"), but the code
behind them is there: estimator_bridge/compat/rnn_cell.py re-exports it and ports contrib's three
projection/embedding wrappers. Found on heldout5 (Tacotron, Tacotron-2, BERT-BiLSTM-CRF, tutorials);
49 files of the corpus and held-out sets used these names.
"""

from migrate.tables.entries import Replacement

_TARGET = "estimator_bridge.compat.rnn_cell"
# tf.nn.rnn_cell's public names in TF 1.15 (dir(tf.nn.rnn_cell)).
CORE_CELLS = ("RNNCell", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell", "DropoutWrapper",
              "ResidualWrapper", "DeviceWrapper", "LSTMStateTuple")
# tf.contrib.rnn's own wrappers (contrib/rnn/python/ops/core_rnn_cell.py), ported.
CONTRIB_WRAPPERS = ("EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper")

RNN_CELLS = {
    **{f"tensorflow.nn.rnn_cell.{name}": Replacement(f"{_TARGET}.{name}") for name in CORE_CELLS},
    **{f"tensorflow.contrib.rnn.{name}": Replacement(f"{_TARGET}.{name}") for name in CORE_CELLS + CONTRIB_WRAPPERS},
    **{f"tensorflow.contrib.rnn.python.ops.core_rnn_cell.{name}": Replacement(f"{_TARGET}.{name}")
       for name in CONTRIB_WRAPPERS},
    # `LayerRNNCell` was tf.contrib.rnn's too (rnn_cell_impl's base for cells with variables).
    "tensorflow.contrib.rnn.LayerRNNCell": Replacement(f"{_TARGET}.LayerRNNCell"),
}
