"""Keras 2's `metrics_names` beside evaluate's numbers (oracle test).

tests/migrate/programs/keras_metrics_names.py holds the everyday TF 2.x pattern
`dict(zip(model.metrics_names, model.evaluate(...)))` and `metrics_names.index('accuracy')`.
Keras 2 listed ['loss', 'accuracy', 'mae']; Keras 3 lists ['loss', 'compile_metrics'] while
evaluate still returns 3 numbers: the zip silently paired 'compile_metrics' with the accuracy and
dropped mae, and `.index('accuracy')` raised ValueError (measured, Keras 3.15). The codemod
(KerasMetricsNames) reads it through estimator_bridge.compat.keras_methods.metrics_names. Measured
against TF 2.15: names, the zipped dict and the indexed accuracy identical.
"""

import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_metrics_names.py"

pytestmark = pytest.mark.oracle


def test_the_migrated_program_pairs_every_name_with_its_number_as_keras_2(tmp_path):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "zip(estimator_bridge.compat.keras_methods.metrics_names(model), result)" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf215"), PROGRAM)
    assert oracle["tensorflow"].startswith("2.15")
    ours = run_current_json(path)
    assert ours["names"] == oracle["names"] == ["loss", "accuracy", "mae"]
    assert ours["named"].keys() == oracle["named"].keys()
    for key, value in oracle["named"].items():
        assert ours["named"][key] == pytest.approx(value, rel=1e-6)
    assert ours["accuracy"] == pytest.approx(oracle["accuracy"], rel=1e-6)


def test_unmigrated_keras_3_lists_its_metric_objects():
    """Pins why the rewrite exists."""
    with pytest.raises(RuntimeError, match="'accuracy' is not in list"):
        run_current_json(PROGRAM)
