"""The evaluation-fusion comparison refuses to time a run that does not give TF 1.15's loss
(bench/core_eval_fusion.py), and its workload gives the same loss fused and unfused."""

import json
import os
import subprocess
import sys

from bench import core_eval_fusion


def test_a_run_whose_loss_differs_from_tf115_is_an_error_not_a_timing():
    runs = {"tf115": {"eval_loss_long": 1.5}, "bridge_fused": {"eval_loss_long": 1.5},
            "bridge_unfused": {"eval_loss_long": 1.25}}
    marked = core_eval_fusion.mark_loss_mismatches(runs)
    assert "error" not in marked["bridge_fused"] and "error" not in marked["tf115"]
    assert "1.25" in marked["bridge_unfused"]["error"]


def test_without_tf115_nothing_is_timed():
    marked = core_eval_fusion.mark_loss_mismatches({"tf115": {"error": "crashed"},
                                                    "bridge_fused": {"eval_loss_long": 1.5}})
    assert "error" in marked["bridge_fused"]


def test_the_workload_gives_the_same_loss_fused_and_unfused():
    losses = {}
    for fusion in ("1", "0"):
        env = dict(os.environ, ESTIMATOR_BRIDGE_STEP_FUSION=fusion, TF_CPP_MIN_LOG_LEVEL="2")
        completed = subprocess.run(
            [sys.executable, str(core_eval_fusion.WORKLOAD), "--impl", "bridge", "--short", "2",
             "--long", "5"], capture_output=True, text=True, env=env, timeout=600, check=True)
        result = json.loads(completed.stdout.strip().splitlines()[-1])
        losses[result["impl"]] = result["eval_loss_long"]
    assert sorted(losses) == ["bridge_fused", "bridge_unfused"]
    assert losses["bridge_fused"] == losses["bridge_unfused"]
