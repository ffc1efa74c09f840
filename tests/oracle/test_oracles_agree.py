"""Both oracles run the DESIGN.md section 6 program and must agree with each other.

This is the anchor of every regression in this repository: if TF 1.15's tf.contrib.tpu and
TF 2.15's tf.compat.v1.estimator.tpu disagree on the same program, no golden can be trusted.
"""

import pytest

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


def test_training_losses_agree_at_every_logged_step(probe_results):
    tf115, tf215 = probe_results["tf115"]["train_loss"], probe_results["tf215"]["train_loss"]
    assert sorted(tf115) == sorted(tf215) == ["1", "100", "2", "50"]
    for step in tf115:
        assert tf215[step] == pytest.approx(tf115[step], rel=1e-6), step


def test_evaluation_agrees(probe_results):
    tf115, tf215 = probe_results["tf115"], probe_results["tf215"]
    assert tf115["global_step"] == tf215["global_step"] == 100
    assert tf115["eval_accuracy"] == tf215["eval_accuracy"]
    # Measured: 0.86122048 (TF 1.15) vs 0.86122042 (TF 2.15): 7e-8 relative, float32 summation order.
    assert tf215["eval_loss"] == pytest.approx(tf115["eval_loss"], rel=1e-6)


def test_numbers_are_the_ones_measured_in_design(probe_results):
    # DESIGN.md section 6 measured these with the same program on TF 1.15; a change means the
    # oracle environment itself changed (different wheel, different CPU kernels).
    tf115 = probe_results["tf115"]
    assert tf115["eval_loss"] == pytest.approx(0.8612205, rel=1e-6)
    assert tf115["eval_accuracy"] == 0.453125
    assert tf115["train_loss"]["100"] == pytest.approx(0.8218996, rel=1e-6)
