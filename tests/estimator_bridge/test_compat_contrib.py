"""The tf.contrib helpers of the TF1 namespace compute what TF 1.15's tf.contrib computed.

`goldens/compat_contrib_recorder.py` exercises l1/l2_regularizer, xavier_initializer (uniform and
normal), variance_scaling_initializer, layer_norm (BERT's axes, the default, a named scope),
data.batch_and_drop_remainder and training.HParams; `goldens/compat_contrib_tf115.json` is its
TF 1.15 run (recorded from two identical runs by `python -m tests.estimator_bridge.goldens.record`,
run again live by the oracle test). The bridge flavour runs the same code with
`tf = estimator_bridge.compat.tf1_namespace()` in a subprocess.

Tolerance: none. Measured: every value is bit-identical to TF 1.15, seeded random initializers
included (same Philox streams for the same graph and op seeds), so the suite's comparison
(tests/support/numbers.py) holds them at rtol 0.
"""

import json

import numpy as np
import pytest

from estimator_bridge.compat.contrib_helpers import HParams
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

GOLDENS = REPO_ROOT / "tests" / "estimator_bridge" / "goldens"
RECORDER = GOLDENS / "compat_contrib_recorder.py"
with open(GOLDENS / "compat_contrib_tf115.json") as golden_stream:
    GOLDEN = json.load(golden_stream)
RTOL = 0.0


@pytest.fixture(scope="module")
def recorded():
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    env["TF_ENABLE_ONEDNN_OPTS"] = "0"
    return run_json(current_python(), RECORDER, "bridge", env=env, cwd=REPO_ROOT)


@pytest.mark.parametrize("group", ["values", "initial_values"])
def test_numbers_match_tf_1_15(recorded, group):
    assert sorted(recorded[group]) == sorted(GOLDEN[group])
    for name, expected in GOLDEN[group].items():
        assert_close(recorded[group][name], expected, rtol=RTOL, what=f"{group} {name}")


def test_variable_names_and_collections_match_tf_1_15(recorded):
    assert recorded["variables"] == GOLDEN["variables"]
    assert recorded["model_variables"] == GOLDEN["model_variables"]


def test_batch_and_drop_remainder_matches_tf_1_15(recorded):
    assert recorded["batches"] == GOLDEN["batches"]
    assert recorded["batch_static_shape"] == GOLDEN["batch_static_shape"]


def test_hparams_parse_and_serialise_like_tf_1_15(recorded):
    assert recorded["hparams"] == GOLDEN["hparams"]
    assert recorded["hparams_json"] == GOLDEN["hparams_json"]


def test_hparams_errors_name_the_parameter():
    hparams = HParams(learning_rate=0.1, layers=[1, 2])
    with pytest.raises(ValueError, match="Unknown hyperparameter type for dropout"):
        hparams.parse("dropout=0.2")
    with pytest.raises(ValueError, match="Must pass a list for multi-valued parameter: layers"):
        hparams.parse("layers=3")
    with pytest.raises(ValueError, match="Could not parse 'fast' as float for hparam learning_rate"):
        hparams.parse("learning_rate=fast")


@pytest.mark.oracle
def test_golden_is_what_tf_1_15_records_now():
    live = run_json(oracle_python("tf115"), RECORDER, "tf115", cwd=REPO_ROOT)
    assert live["tensorflow"] == "1.15.0"
    assert live == GOLDEN, (
        "oracle A no longer records goldens/compat_contrib_tf115.json; if the recorder changed "
        "on purpose, re-record it: python -m tests.estimator_bridge.goldens.record compat_contrib")
