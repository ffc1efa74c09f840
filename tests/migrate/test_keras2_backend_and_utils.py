"""Keras 2 backend functions, utilities and cell methods Keras 3 removed keep their numbers after
estimator-migrate (oracle test).

tests/migrate/programs/keras2_backend_and_utils.py (a custom RMSE loss of K.sqrt/K.mean/K.square
trained with fit; K.argmax, K.concatenate, K.expand_dims, K.int_shape; the Tokenizer; an LSTM
cell's get_initial_state(batch_size=, dtype=)) stopped on Keras 3 at the Tokenizer import, then at
K.square (AttributeError, no finding before). The codemod writes keras.ops for the functions
with the same parameters, estimator_bridge.compat.keras2_backend for those whose Keras 3 namesake
differs (clipped sqrt, last-axis defaults), tf-keras's Tokenizer and
estimator_bridge.compat.keras2_utils.get_initial_state. Measured (TF 2.21 + Keras 3.15 vs TF 1.15,
CPU): losses within 1e-7 relative, the values equal; held to 1e-6.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras2_backend_and_utils.py"


@pytest.mark.oracle
def test_the_migrated_backend_functions_and_utilities_reproduce_tf_1_15(tmp_path):
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "keras2_backend.sqrt(keras.ops.mean(keras.ops.square(" in migrated
    assert "from tf_keras.preprocessing.text import Tokenizer" in migrated
    assert [f.code for f in findings] == ["MIG305"]   # the program's own TF 1.x get_session branch
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    ours = run_current_json(path)
    np.testing.assert_allclose(ours["loss"], oracle["loss"], rtol=1e-6)
    for mine, theirs in zip(ours["values"], oracle["values"]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-6)
    for key in ("int_shape", "summary", "sequences"):
        assert ours[key] == oracle[key], key


def test_one_state_cells_get_their_state_alone_as_in_keras_2():
    import keras

    from estimator_bridge.compat.keras2_utils import get_initial_state

    state = get_initial_state(keras.layers.GRUCell(3), batch_size=2, dtype="float32")
    assert tuple(state.shape) == (2, 3)     # Keras 2 returned the tensor; Keras 3 returns [tensor]
    h, c = get_initial_state(keras.layers.LSTMCell(3), batch_size=2, dtype="float16")
    assert tuple(c.shape) == (2, 3) and "float16" in str(c.dtype)
