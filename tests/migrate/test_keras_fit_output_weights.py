"""TF 1.x Keras `fit` on arrays of a two-output model with `class_weight` / `sample_weight` per output, with
`steps_per_epoch`, and `fit(..., shuffle="batch")`, after estimator-migrate on both Keras targets, against
TF 1.15 (oracle test).

TF 1.15 mapped `class_weight` and `sample_weight` to the outputs (a dict by output name, a list in output
order), made each output's class weights per-row weights of its labels times its sample weights, and
with shuffle="batch" drew the order of whole batch-sized chunks with numpy; a Sequence's batches it weighed so
one by one. Measured before this fix on
tests/migrate/programs/keras_fit_output_weights.py (TF 2.21, Keras 3.15, tf-keras 2.21): every per-output
class_weight case raised on both targets (Keras 3: "`class_weight` is only supported for Models with a
single output"; tf-keras: "Expected `class_weight` to be a dict with keys from 0 ..." or AttributeError; a
Sequence on both: "`class_weight` not supported for 3+ dimensional targets"),
and shuffle="batch" trained on TensorFlow's order (loss 1.4e-3 / 2.4e-2 off, val_loss 5.8e-2 / 0.2 off
with validation_split and class_weight; the next numpy draw differed). After: every history entry within
1.6e-7 relative of TF 1.15, the next numpy draw equal.
tf-keras reports a per-output loss (`a_loss`) of an epoch whose last batch is short weighted by batch size,
TF 1.15 and Keras 3 as the plain mean of the batches' values (the total `loss` agrees): measured 2.2e-2
(`a_loss`) and 0.22 (`val_b_loss`) apart with 30 training rows in 8s; the case with validation_split keeps
whole batches for this reason.
"""

import pytest

from tests.support.keras_fit_cases import assert_same_training, migrated_cases, migrated_text, oracle_cases
from tests.support.oracles import REPO_ROOT

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_fit_output_weights.py"
CASES = ("class_weight_by_name", "class_weight_list_labels_by_name",
         "class_weight_one_output_sample_weight_validation", "class_and_sample_weight_steps",
         "sequence_class_weight_by_name", "sample_weight_steps_validation_data", "shuffle_batch",
         "shuffle_batch_validation_class_weight")

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def oracle():
    return oracle_cases(PROGRAM)


@pytest.fixture(scope="module", params=["3", "2"])
def migrated(request, tmp_path_factory):
    text, _ = migrated_text(PROGRAM, request.param)
    assert text.count("keras_methods.fit_tf1(") == len(CASES)
    return migrated_cases(PROGRAM, request.param, tmp_path_factory.mktemp(f"keras{request.param}"))


@pytest.mark.parametrize("case", CASES)
def test_the_migrated_fit_weighs_each_output_and_shuffles_batches_as_tf_1_15(oracle, migrated, case):
    assert_same_training(oracle[case], migrated[case])
