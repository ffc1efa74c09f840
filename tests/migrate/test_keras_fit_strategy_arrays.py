"""TF 1.x Keras `fit` on numpy arrays of a model built under a tf.distribute strategy's scope, after
estimator-migrate on both Keras targets, against TF 1.15 (oracle test).

TF 1.15 fed a model of the default strategy (`tf.distribute.get_strategy().scope()`) like any other:
numpy's order, validation rows shuffled with numpy after each epoch even with shuffle=False. Under
OneDeviceStrategy or a one-device MirroredStrategy it fitted on `Dataset.from_tensor_slices(arrays)
.shuffle(max(1024, 8 * batch_size)).repeat(epochs).batch(batch_size)` and drew nothing from numpy.
Measured on tests/migrate/programs/keras_fit_strategy_arrays.py (TF 2.21, Keras 3.15, tf-keras 2.21):
before, with shuffle=False, the default strategy's numpy stream ended elsewhere on both targets; after,
that case and every unshuffled strategy case are within 1.4e-7 relative of TF 1.15. Shuffled under
OneDevice / Mirrored, TF 1.15's order came from the graph's seed and op count (repeatable in TF 1.15,
drawn again by no TF 2 program): the losses stay 6e-3..6e-2 apart, and the codemod reports MIG212
with the replacement.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_fit_strategy_arrays.py"
FAITHFUL = ("default_True", "default_False", "one_device_False", "mirrored_False")

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
        text, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    # the shuffled fit under OneDevice / Mirrored: reported with the replacement, not rewritten silently
    reported = [f for f in findings if f.code == "MIG212"]
    assert len(reported) == 1 and "seed=SEED).repeat().batch(8)" in reported[0].hint
    path = tmp_path_factory.mktemp(f"keras{request.param}") / PROGRAM.name
    path.write_text(text)
    return run_current_json(path)["cases"]


@pytest.mark.parametrize("case", FAITHFUL)
def test_the_migrated_fit_under_a_strategy_gives_tf_1_15s_numbers(oracle, migrated, case):
    theirs, ours = oracle[case], migrated[case]
    assert ours["next_draw"] == theirs["next_draw"]   # the numpy stream is where TF 1.15 left it
    assert sorted(ours["history"]) == sorted(theirs["history"])
    for key, values in theirs["history"].items():
        np.testing.assert_allclose(ours["history"][key], values, rtol=1e-6, atol=1e-7, err_msg=key)
    np.testing.assert_allclose(ours["kernel"], theirs["kernel"], rtol=1e-5, atol=1e-7)
