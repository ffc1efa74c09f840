"""TF 1.x Keras `fit` with validation arrays and `shuffle=False`, with `class_weight`, with `class_weight`
and `sample_weight`, and with `sample_weight` and `steps_per_epoch`, after estimator-migrate on both
Keras targets, against TF 1.15 (oracle test).

TF 1.15's array loop shuffled the validation rows with numpy's global generator after each epoch's
training even with `shuffle=False` (its validation pass ran with the loop's default shuffle=True), and
turned `class_weight` into per-row weights (times `sample_weight`) before batching; in steps mode it
fed the whole arrays, weights too, at every step; on a Sequence it weighed every batch's rows.
Measured before this fix on tests/migrate/programs/keras_fit_weights_validation.py (TF 2.21, Keras 3.15,
tf-keras 2.21): with shuffle=False the numpy stream ended elsewhere on both targets and val_rmse was
4.2e-3 (validation_data) / 8.8e-2 (validation_split) off; class_weight trained on TensorFlow's order
(loss 3.5e-2 / 5.2e-2 off); class_weight with sample_weight raised on both targets (Keras 3: "You cannot
`class_weight` and `sample_weight` at the same time"); sample_weight with steps_per_epoch cut the arrays
into batches (loss 9e-3 / 1e-2 off); a Sequence with class_weight was restarted each epoch (loss 6.5e-3
off). After: every loss, metric and kernel entry within 1.3e-7 relative of TF 1.15, the next numpy
draw equal.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_fit_weights_validation.py"
CASES = ("unshuffled_validation_data", "unshuffled_validation_split", "class_weight", "class_and_sample_weight",
         "sample_weight_steps", "sequence_class_weight")

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def oracle():
    result = run_json(oracle_python("tf115"), PROGRAM)
    assert result["tensorflow"] == "1.15.0"
    return result["cases"]


@pytest.fixture(scope="module", params=["3", "2"])
def migrated(request, tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENVIRONMENT, request.param)
        text, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert text.count("keras_methods.fit_tf1(") == len(CASES)   # shuffle=False with validation too
    path = tmp_path_factory.mktemp(f"keras{request.param}") / PROGRAM.name
    path.write_text(text)
    return run_current_json(path)["cases"]


@pytest.mark.parametrize("case", CASES)
def test_the_migrated_fit_weighs_and_validates_as_tf_1_15(oracle, migrated, case):
    theirs, ours = oracle[case], migrated[case]
    assert "error" not in ours, ours.get("error")
    assert ours["next_draw"] == theirs["next_draw"]   # the numpy stream is where TF 1.15 left it
    assert sorted(ours["history"]) == sorted(theirs["history"])
    for key, values in theirs["history"].items():
        np.testing.assert_allclose(ours["history"][key], values, rtol=1e-6, atol=1e-7, err_msg=key)
    np.testing.assert_allclose(ours["kernel"], theirs["kernel"], rtol=1e-5, atol=1e-7)


def test_migrating_twice_changes_nothing(monkeypatch):
    for target in ("3", "2"):
        monkeypatch.setenv(ENVIRONMENT, target)
        once, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
        assert migrate_text(once, str(PROGRAM))[0] == once
