"""`model.compile(optimizer, loss, metrics)` with metrics passed positionally keeps TF 1.x's meaning after
estimator-migrate (oracle test).

Keras 3's compile is (optimizer, loss, loss_weights, metrics, ...); TF 1.x's was (optimizer, loss, metrics,
loss_weights, ...). tests/migrate/programs/keras_compile_positional.py (koshian2/affinity-loss's
`model.compile("adam", affinity_loss(0.43), [acc])`, heldout5) failed as written on Keras 3 ("Failed to
convert elements of <function acc> to Tensor": the metrics became loss weights). The codemod
(KerasRemovedMethods) writes the third and fourth positions as metrics= / loss_weights=; the compat runner
(`python -m estimator_bridge.run`, unmigrated code) failed the same way on Keras 3 and runs it on Keras 2
(tf-keras, TF 1.x's positions).
Measured (TF 2.21 + Keras 3 vs TF 1.15, CPU): history losses and accuracies, and the evaluation, within
1e-6 relative; held to 1e-5.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_compile_positional.py"


@pytest.mark.oracle
def test_positional_metrics_migrated_and_under_the_runner_reproduce_tf_1_15(tmp_path):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert 'model.compile("adam", margin_loss(0.43), metrics=[acc])' in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    for ours in (run_current_json(path), run_current_json("-m", "estimator_bridge.run", str(PROGRAM))):
        for key in ("loss", "acc", "evaluate"):
            np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-5, err_msg=key)
