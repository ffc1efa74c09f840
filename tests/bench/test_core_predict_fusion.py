"""The predict-fusion comparison refuses to time runs whose predictions disagree
(bench/core_predict_fusion.py), and its workload predicts the same bytes fused and unfused."""

import json
import os
import subprocess
import sys

from bench import core_predict_fusion


def _runs(fused_probabilities="p", tf115_classes="c"):
    return {"tf115": {"classes_sha256": tf115_classes, "probabilities_sha256": "q"},
            "bridge_fused": {"classes_sha256": "c", "probabilities_sha256": fused_probabilities},
            "bridge_unfused": {"classes_sha256": "c", "probabilities_sha256": "p"}}


def test_runs_that_agree_are_timed_though_tf115_probabilities_differ_in_the_last_bits():
    marked = core_predict_fusion.mark_prediction_mismatches(_runs())
    assert not any("error" in run for run in marked.values())


def test_fused_probabilities_that_differ_from_unfused_are_an_error_not_a_timing():
    marked = core_predict_fusion.mark_prediction_mismatches(_runs(fused_probabilities="x"))
    assert "error" in marked["bridge_fused"] and "error" in marked["bridge_unfused"]
    assert "error" not in marked["tf115"]


def test_classes_that_differ_from_tf115_are_an_error_not_a_timing():
    marked = core_predict_fusion.mark_prediction_mismatches(_runs(tf115_classes="other"))
    assert "error" in marked["bridge_fused"] and "error" in marked["bridge_unfused"]


def test_the_workload_predicts_the_same_bytes_fused_and_unfused(input_kind="unknown"):
    """(finite input: tests/estimator_bridge/test_predict_fusion.py; one subprocess pair here.)"""
    digests = {}
    for fusion in ("1", "0"):
        env = dict(os.environ, ESTIMATOR_BRIDGE_STEP_FUSION=fusion, TF_CPP_MIN_LOG_LEVEL="2")
        completed = subprocess.run(
            [sys.executable, str(core_predict_fusion.WORKLOAD), "--impl", "bridge", "--input",
             input_kind, "--short", "2", "--long", "5"],
            capture_output=True, text=True, env=env, timeout=600, check=True)
        result = json.loads(completed.stdout.strip().splitlines()[-1])
        assert result["examples_long"] == 5 * 32
        digests[result["impl"]] = (result["classes_sha256"], result["probabilities_sha256"])
    assert sorted(digests) == ["bridge_fused", "bridge_unfused"]
    assert digests["bridge_fused"] == digests["bridge_unfused"]
