"""Keras `fit` on a keras.utils.Sequence of a model built under a tf.distribute strategy, after
estimator-migrate on both Keras targets: a TF 2.x program against TF 2.15, a TF 1.x program against TF 1.15
(oracle tests).

TF 2.15's Keras read the Sequence through one generator per epoch, its order drawn with Python's
`random.shuffle`, the same under the default strategy, a one-device MirroredStrategy and a MirroredStrategy
over two logical CPUs. Keras 3's trainer under a (non-default) strategy reads a batch to build the model
before the first epoch, which draws one order more: measured before this fix on
tests/migrate/programs/keras_sequence_strategy_tf2.py (TF 2.21, Keras 3.15), both Mirrored cases trained on
other batches (epoch losses 4.3e-3 relative off, [0.700677, 0.687204, 0.675859] against TF 2.15's
[0.703734, 0.685806, 0.676682]) and Python's generator ended elsewhere; tf-keras (`--keras 2`) was already
TF 2.15's. After (`unseen_symbolic_build`): every loss within 8.5e-8 relative of TF 2.15, both
generators where TF 2.15 left them.
TF 1.15 refused a Sequence under MirroredStrategy (AssertionError: datasets only): no faithful run
exists; the migrated program runs with TF 2.x's order and the codemod reports MIG213. Under the default
strategy the migrated fit gives TF 1.15's numbers.
"""

import pytest

from tests.support.keras_fit_cases import assert_same_training, migrated_cases, migrated_text, oracle_cases
from tests.support.oracles import REPO_ROOT

PROGRAMS = REPO_ROOT / "tests" / "migrate" / "programs"
TF2 = PROGRAMS / "keras_sequence_strategy_tf2.py"
TF1 = PROGRAMS / "keras_sequence_strategy_tf1.py"

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def tf215():
    return oracle_cases(TF2, "tf215")


@pytest.fixture(scope="module")
def tf115():
    return oracle_cases(TF1, "tf115")


@pytest.fixture(scope="module", params=["3", "2"])
def target(request):
    return request.param


@pytest.mark.parametrize("case", ["default", "mirrored_one_cpu", "mirrored_two_cpus"])
def test_a_tf2_sequence_under_a_strategy_reads_tf_2_15s_batches(tf215, target, case, tmp_path):
    ours = migrated_cases(TF2, target, tmp_path)[case]
    assert_same_training(tf215[case], ours)
    assert ours["next_random"] == tf215[case]["next_random"]   # Python's generator too


def test_a_tf1_sequence_under_a_strategy_is_reported_and_runs(tf115, target, tmp_path):
    _, findings = migrated_text(TF1, target)
    [finding] = [f for f in findings if f.code == "MIG213"]
    assert "AssertionError" in finding.message and "outside the strategy's scope" in finding.hint
    ours = migrated_cases(TF1, target, tmp_path)
    assert_same_training(tf115["default"], ours["default"])
    assert tf115["mirrored"]["error"].startswith("AssertionError")   # TF 1.15 refused it
    assert "error" not in ours["mirrored"]   # Keras reads it (TF 2.x's order), as MIG213 says
