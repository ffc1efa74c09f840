"""tf.contrib.crf migrated to estimator_bridge.compat.contrib_crf computes what TF 1.15 computed.

Fixture contrib/contrib_crf (heldout5: kyzhouhzau/BERT-NER's crf_log_likelihood with its own transitions and
crf_decode, macanv/BERT-BiLSTM-CRF-NER's crf_log_likelihood creating `transitions`; every other name of the
module, single-step sequences and a zero length): `compute()` runs on TF 1.15 as written and on current
TensorFlow migrated. Variable names, decoded tags and Viterbi paths are equal; scores, log norms,
likelihoods, three GradientDescent losses and the trained variables within rtol 1e-6 (measured 2026-11-27:
every score bit-equal, losses 9.5e-7 apart on 9.5-13.5, variables 3e-8).
"""

from pathlib import Path

import pytest

from migrate.engine import migrate_text
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "run_fixture_compute.py"
FIXTURE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "contrib" / "contrib_crf"


def test_crf_names_and_their_internal_module_go_to_the_bridge():
    source = ("import tensorflow as tf\n"
              "from tensorflow.contrib.crf.python.ops.crf import viterbi_decode\n"
              "ll, trans = tf.contrib.crf.crf_log_likelihood(logits, tags, lengths)\n"
              "tags, score = tf.contrib.crf.crf_decode(logits, trans, lengths)\n"
              "path = viterbi_decode(scores, transitions)\n")
    migrated, findings = migrate_text(source)
    assert migrated == ("import tensorflow as tf\n"
                        "from estimator_bridge.compat.contrib_crf import viterbi_decode\n"
                        "import estimator_bridge.compat.contrib_crf\n"
                        "\n"
                        "ll, trans = estimator_bridge.compat.contrib_crf.crf_log_likelihood(logits, tags, lengths)\n"
                        "tags, score = estimator_bridge.compat.contrib_crf.crf_decode(logits, trans, lengths)\n"
                        "path = viterbi_decode(scores, transitions)\n")
    assert findings == []


def test_the_fixture_keeps_no_contrib_name():
    migrated, findings = migrate_text(Path(f"{FIXTURE}.before.py").read_text())
    assert "contrib" not in migrated.split('"""')[2].replace("compat.contrib_crf", "")
    assert {f.code for f in findings} == {"MIG211"}  # the fixture's own Session


@pytest.mark.oracle
def test_migrated_crf_computes_what_tf_1_15_computed():
    expected = run_json(oracle_python("tf115"), PROGRAM, f"{FIXTURE}.before.py", cwd=REPO_ROOT)
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, f"{FIXTURE}.after.py", env=env, cwd=REPO_ROOT)
    assert (expected.pop("tensorflow"), ours.pop("tensorflow")) == ("1", "2")
    assert sorted(ours) == sorted(expected)
    for key in ("named", "decoded", "single_tags", "viterbi"):
        assert ours.pop(key) == expected.pop(key), key
    for key, value in expected.items():
        assert_close(ours[key], value, rtol=1e-6, what=key)
