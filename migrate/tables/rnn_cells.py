"""TF 1.x's RNN cells -> estimator_bridge.compat.rnn_cell (TF 1.15's cells, which TF 2.21 still ships),
and tf.contrib.crf -> estimator_bridge.compat.contrib_crf (our linear-chain CRF on TF 2.21's ops).

`tf.nn.rnn_cell.X` (also `tf.compat.v1.nn.rnn_cell.X`) and `tf.contrib.rnn.X` were the same objects in
TF 1.15 (contrib/rnn/__init__.py star-imported tensorflow/python/ops/rnn_cell.py). On TF 2.21 with
Keras 3 the public `tf.compat.v1.nn.rnn_cell` names raise ("not available with Keras 3"), but the code
behind them is there: estimator_bridge/compat/rnn_cell.py re-exports it and implements contrib's three
projection/embedding wrappers with TF 1.x's variables.
"""

from migrate.tables.entries import Replacement

_TARGET = "estimator_bridge.compat.rnn_cell"
# tf.nn.rnn_cell's public names in TF 1.15 (dir(tf.nn.rnn_cell)).
CORE_CELLS = ("RNNCell", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell", "DropoutWrapper",
              "ResidualWrapper", "DeviceWrapper", "LSTMStateTuple")
# tf.contrib.rnn's own wrappers (contrib/rnn/python/ops/core_rnn_cell.py), implemented in the bridge.
CONTRIB_WRAPPERS = ("EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper")

RNN_CELLS = {
    **{f"tensorflow.nn.rnn_cell.{name}": Replacement(f"{_TARGET}.{name}") for name in CORE_CELLS},
    **{f"tensorflow.contrib.rnn.{name}": Replacement(f"{_TARGET}.{name}") for name in CORE_CELLS + CONTRIB_WRAPPERS},
    **{f"tensorflow.contrib.rnn.python.ops.core_rnn_cell.{name}": Replacement(f"{_TARGET}.{name}")
       for name in CONTRIB_WRAPPERS},
    # `LayerRNNCell` was tf.contrib.rnn's too (rnn_cell_impl's base for cells with variables).
    "tensorflow.contrib.rnn.LayerRNNCell": Replacement(f"{_TARGET}.LayerRNNCell"),
}

# tf.contrib.crf's public names (contrib/crf/__init__.py), implemented in the bridge (heldout5: BERT-NER,
# BERT-BiLSTM-CRF-NER; heldout3: tf_ner). `...crf.python.ops.crf.X` was the same object.
CRF = ("crf_binary_score", "crf_decode", "crf_log_likelihood", "crf_log_norm", "crf_multitag_sequence_score",
       "crf_sequence_score", "crf_unary_score", "CrfDecodeBackwardRnnCell", "CrfDecodeForwardRnnCell",
       "CrfForwardRnnCell", "viterbi_decode")
RNN_CELLS.update({f"{prefix}.{name}": Replacement(f"estimator_bridge.compat.contrib_crf.{name}")
                  for prefix in ("tensorflow.contrib.crf", "tensorflow.contrib.crf.python.ops.crf") for name in CRF})

# tf.contrib.rnn's fused cells (contrib/rnn/python/ops/lstm_ops.py, gru_ops.py): implemented in the bridge
# on the kernels TF 2.21 has in core (heldout5: tensorpack Char-RNN; magenta, planet, scalable_agent, tf_ner).
BLOCK_CELLS = ("LSTMBlockCell", "LSTMBlockFusedCell", "LSTMBlockWrapper", "GRUBlockCell", "GRUBlockCellV2")
RNN_CELLS.update({f"tensorflow.contrib.rnn.{name}": Replacement(f"estimator_bridge.compat.contrib_rnn_block.{name}")
                  for name in BLOCK_CELLS})

# TF 1.x tutorials' MNIST reader (tensorflow/examples/tutorials/mnist/input_data.py re-exported contrib.learn's
# datasets/mnist.py): estimator_bridge/compat/mnist_input_data.py, the same batches (heldout5: DeepLearningZeroToAll,
# Hvass-Labs; google-research/rigl's mnist example).
MNIST_INPUT_DATA = ("read_data_sets", "DataSet", "extract_images", "extract_labels", "dense_to_one_hot",
                    "load_mnist", "maybe_download")
RNN_CELLS.update({f"{module}.{name}": Replacement(f"estimator_bridge.compat.mnist_input_data.{name}")
                  for module in ("tensorflow.examples.tutorials.mnist.input_data",
                                 "tensorflow.contrib.learn.python.learn.datasets.mnist")
                  for name in MNIST_INPUT_DATA})
