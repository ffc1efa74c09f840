"""Keras 2's names where the first rewrites did not reach: a metrics list held in a name, the
'lr' key in an `if`/`for` header, `metrics_names` right after compile (oracle test).

tests/migrate/programs/keras_tf1_names_held.py runs on TF 1.15, migrated on Keras 3, and unchanged
under the compat runner. Before: migrated, `history.history['acc']` raised KeyError (the list held
in METRICS kept 'accuracy'), `if 'lr' in history.history:` was False (rates []) and the `for` over
history.history['lr'] raised KeyError; `metrics_names` after compile was ['loss'] through the
helper; under the runner `metrics_names` was Keras 3's ['loss', 'compile_metrics'] and the history
had no 'lr'. Measured against TF 1.15 from the same weights: names, rates and history equal,
losses and scores within rtol 1e-6.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tf1_names_held.py"
RTOL = 1e-6

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def oracle():
    result = run_json(oracle_python("tf115"), PROGRAM)
    assert result["tensorflow"].startswith("1.15")
    assert result["names_after_compile"] == ["loss", "acc", "mean_absolute_error"]
    assert len(result["rates"]) == 3
    return result


def _same(ours, oracle):
    assert ours["names_after_compile"] == oracle["names_after_compile"]
    assert ours["scores"].keys() == oracle["scores"].keys()
    np.testing.assert_allclose(ours["rates"], oracle["rates"], rtol=RTOL)
    np.testing.assert_allclose(ours["halved"], oracle["halved"], rtol=RTOL)
    np.testing.assert_allclose(ours["accuracy"], oracle["accuracy"], rtol=RTOL)
    np.testing.assert_allclose(ours["loss"], oracle["loss"], rtol=RTOL)
    for key, value in oracle["scores"].items():
        assert ours["scores"][key] == pytest.approx(value, rel=RTOL), key


def test_the_migrated_program_reads_tf1s_names(tmp_path, oracle):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "METRICS = ['acc', 'mean_absolute_error']" in migrated
    assert "if 'learning_rate' in history.history:" in migrated
    assert "for rate in history.history['learning_rate']:" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    _same(run_current_json(path), oracle)


def test_the_runner_reads_tf1s_names(oracle):
    _same(run_current_json("-m", "estimator_bridge.run", str(PROGRAM)), oracle)
