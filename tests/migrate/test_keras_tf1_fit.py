"""`fit(arrays, steps_per_epoch=N)` without a batch size keeps TF 1.x's numbers after estimator-migrate
(oracle test).

tests/migrate/programs/keras_tf1_fit_arrays.py: TF 1.15's Keras fed the full arrays at each of the
N steps (graph mode, no strategy); Keras 3 cuts them into N batches. The codemod (KerasTF1Fit,
TF1 files only) routes the call through estimator_bridge.compat.keras_methods.fit_tf1.
Measured (TF 2.21 + Keras 3.15 vs TF 1.15, CPU): epoch losses within 1e-7 relative; held to 1e-5.
Without the rewrite the third epoch's loss is 13% higher (0.654 vs 0.580).
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.estimator_bridge.test_compat_keras_methods import TF115_FULL_ARRAY_LOSSES
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tf1_fit_arrays.py"

pytestmark = pytest.mark.oracle


def _current(program):
    return run_current_json(program)


def test_the_migrated_fit_on_arrays_with_steps_reproduces_tf_1_15(tmp_path):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "keras_methods.fit_tf1(model, x, y, steps_per_epoch=5" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    # the fast test of fit_tf1 holds the helper to these losses, typed: they are TF 1.15's, live
    assert_close(oracle["losses"], TF115_FULL_ARRAY_LOSSES, rtol=1e-7, what="TF 1.15 live losses")
    ours = _current(path)
    np.testing.assert_allclose(ours["losses"], oracle["losses"], rtol=1e-5)
    as_written = _current(PROGRAM)
    # as written, Keras 3 trains on batches of 24: 0.929 / 0.781 / 0.654 against TF 1.15's 0.934 / 0.697 / 0.580
    assert abs(as_written["losses"][-1] - oracle["losses"][-1]) > 0.05 * oracle["losses"][-1]
