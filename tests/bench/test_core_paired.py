"""The in-process alternation of the bridge and the TF2 loop runs and pairs every round."""

import json
import os
import subprocess
import sys

import pytest

from bench.core_paired import WARMUP_ROUNDS
from tests.support.oracles import REPO_ROOT


@pytest.mark.slow  # a TensorFlow subprocess: about 20 s on the shared 2-core machine
def test_the_paired_benchmark_times_both_sides_of_every_round_after_warm_up():
    rounds = WARMUP_ROUNDS + 6
    completed = subprocess.run(
        [sys.executable, "-m", "bench.core_paired", "--rounds", str(rounds),
         "--steps-per-loop", "5"], capture_output=True, text=True, timeout=300, cwd=REPO_ROOT,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"})
    assert completed.returncode == 0, completed.stderr[-3000:]
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["timed_rounds"] == 6
    assert result["bridge_over_tf2_loop"]["n"] == 6
    assert result["bridge_over_tf2_loop"]["median"] > 0
    assert result["bridge_seconds_per_loop"] > 0 and result["tf2_loop_seconds_per_loop"] > 0
