"""1-D arrays fed to a rank-2 model input keep TF 1.x's meaning after estimator-migrate (oracle test).

tensorflow/tpu models/experimental/keras_colab/shakespeare_lstm.py samples characters with a stateful
(5, 1) model: `prediction_model.predict(last_word)` gets `seed[:, -1:]` (5, 1) first, then
`np.asarray(next_idx)` (5,). TF 1.x's Keras fed a 1-D array (and a list of numbers) to a rank-2 input
as an (n, 1) column in every model method; Keras 3 and tf-keras raise once the method has run on a
2-D input ("as_list() is not defined on an unknown TensorShape"; tf-keras: "In[0] ndims must be >=
2") and refuse the list. The codemod (KerasTF1Inputs, TF1 files) routes predict, predict_on_batch,
evaluate, train_on_batch and test_on_batch through estimator_bridge.compat.keras_tf1_inputs.
Measured (TF 2.21 + Keras 3.15 / tf-keras 2.21.0 vs TF 1.15, CPU): the stateful LSTM's sampled
probabilities within 3.4e-7 relative, every other number equal; held to 1e-6. Without the helper the
migrated program stops at the second sampling step.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tf1_rank1_inputs.py"

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def tf115():
    return run_json(oracle_python("tf115"), PROGRAM)


@pytest.mark.parametrize("keras", ["3", "2"])
def test_migrated_rank_1_inputs_reproduce_tf_1_15(tf115, keras, tmp_path, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, keras)
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "keras_tf1_inputs.predict_tf1(sampler, last)" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    ours = run_current_json(path)
    assert sorted(ours) == sorted(tf115)
    for key, expected in tf115.items():
        if key == "weights":
            for mine, theirs in zip(ours[key], expected):
                np.testing.assert_allclose(mine, theirs, rtol=1e-6, err_msg=key)
        else:
            np.testing.assert_allclose(ours[key], expected, rtol=1e-6, err_msg=key)
    # TF 1.15 took the 1-D array and the list of numbers as the (6, 1) column: the same numbers
    for method in ("predict_on_batch", "test_on_batch", "evaluate", "predict"):
        assert tf115[method][0] == tf115[method][1] == tf115[method][2], method
