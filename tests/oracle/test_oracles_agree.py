"""Both oracles run the probe program (docs/architecture.md) and must agree with each other.

This is the anchor of every regression in this repository: if TF 1.15's tf.contrib.tpu and
TF 2.15's tf.compat.v1.estimator.tpu disagree on the same program, no golden can be trusted.
"""

import json

import pytest

from tests.estimator_bridge.core_goldens.record import DESIGN_PROBE_GOLDEN_FILE
from tests.support.goldens import assert_probe_run_matches
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, oracle_python, run_json

PROBE = REPO_ROOT / "oracle" / "programs" / "design_probe.py"

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def probe_results(tmp_path_factory):
    results = {}
    for name in ("tf115", "tf215"):
        model_dir = tmp_path_factory.mktemp(f"probe_{name}")
        results[name] = run_json(oracle_python(name), PROBE, name, str(model_dir))
    return results


def test_oracles_are_the_versions_we_claim(probe_results):
    assert probe_results["tf115"]["tensorflow"] == "1.15.0"
    assert probe_results["tf215"]["tensorflow"] == "2.15.1"


# Measured (2026-11-23): losses at steps 1, 2, 50, 100 and the eval loss agree to 7e-8 (eval
# 0.86122048 on TF 1.15 vs 0.86122042 on TF 2.15: float32 summation order); rtol 1e-6.
RTOL = 1e-6


def test_training_losses_agree_at_every_logged_step(probe_results):
    tf115, tf215 = probe_results["tf115"]["train_loss"], probe_results["tf215"]["train_loss"]
    assert sorted(tf115) == sorted(tf215) == ["1", "100", "2", "50"]
    for step in tf115:
        assert_close(tf215[step], tf115[step], rtol=RTOL, what=f"loss at step {step}")


def test_evaluation_agrees(probe_results):
    tf115, tf215 = probe_results["tf115"], probe_results["tf215"]
    assert tf115["global_step"] == tf215["global_step"] == 100
    assert tf115["eval_accuracy"] == tf215["eval_accuracy"]
    assert_close(tf215["eval_loss"], tf115["eval_loss"], rtol=RTOL, what="eval loss")


def test_tf115_still_computes_its_recorded_golden(probe_results):
    """The committed design_probe_tf115.json (recorded from two identical runs by
    tests/estimator_bridge/core_goldens/record.py): a change means the oracle environment itself
    changed (a different wheel, different CPU kernels), and every golden is suspect."""
    assert_probe_run_matches(probe_results["tf115"], json.loads(DESIGN_PROBE_GOLDEN_FILE.read_text()),
                             rtol=RTOL)
