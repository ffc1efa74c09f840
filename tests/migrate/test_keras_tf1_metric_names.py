"""TF 1.x Keras programs read their history by TF 1.x's metric names (oracle test).

tests/migrate/programs/keras_tf1_metric_names.py has the shape of training-data-analyst's
07_Keras_Flowers_TPU_squeezenet.ipynb of 2019 (a12263e96): compile(metrics=['accuracy']) and
`history.history['acc']` / `['val_acc']` for the plots. TF 1.15 named the metric 'acc' (and 'mae'
'mean_absolute_error'); Keras 3 names it as written, so the migrated notebook raised KeyError 'acc'
after training (measured on the notebook with synthetic flowers records, 2026-11-27). The codemod
(KerasTF1MetricNames) spells them so that Keras 3 gives TF 1.x's names; the runner runs the program on
TF 1.x's own Keras 2 (tf-keras in graph mode), which names them so. Measured against TF 1.15 from the same weights: the
same history keys, losses within 1.8e-8, metrics and evaluate equal to the printed digits.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tf1_metric_names.py"
RTOL = 1e-6

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def oracle():
    result = run_json(oracle_python("tf115"), PROGRAM)
    assert result["tensorflow"].startswith("1.15")
    return result


def _same(ours, oracle):
    assert ours["keys"] == oracle["keys"]
    for key, values in oracle["history"].items():
        np.testing.assert_allclose(ours["history"][key], values, rtol=RTOL, err_msg=key)
    np.testing.assert_allclose(ours["evaluate"], oracle["evaluate"], rtol=RTOL)


def test_the_migrated_program_has_tf1s_history_keys_and_numbers(tmp_path, oracle):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "metrics=['acc', 'mean_absolute_error']" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    _same(run_current_json(path), oracle)


def test_the_runner_gives_tf1s_history_keys_and_numbers(oracle):
    _same(run_current_json("-m", "estimator_bridge.run", str(PROGRAM)), oracle)


def test_unmigrated_the_program_fails_on_keras_3():
    """Pins why the rewrite exists."""
    with pytest.raises(RuntimeError, match="KeyError: 'acc'"):
        run_current_json(PROGRAM)
