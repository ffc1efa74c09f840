"""verify's diagnosis of a side: what a user reads to act on (verify/report.py)."""

from pathlib import Path

import pytest

from verify.findings import limitation
from verify.judge import judge
from verify.pipeline import Phase, SideResult, VerifyResult
from verify.program import Program
from verify.report import diagnosis


def _run(losses, evaluations=None):
    run = {"scalars": {"loss": {str(step): value for step, value in enumerate(losses, 1)}},
           "variables": {"dense/bias": {"values": [0.5, -0.25], "l2": 0.559, "shape": [2]}}}
    if evaluations:
        run["evaluation"] = {"eval": {"accuracy": {"4": evaluations}}}
    return run


def test_under_ver006_the_series_missing_on_a_side_are_listed():
    """Issue 29: a BERT-optimizer program (the oracle races on its global step) whose side wrote no
    evaluation and a loss series cut short said only 'VER006 ...': the series it lacks were not named."""
    oracle = [_run([1.0, 0.9, 0.8, 0.7], evaluations=0.75), _run([1.0, 0.91, 0.8, 0.69], evaluations=0.75)]
    ours = _run([1.0, 0.95])
    ours["scalars"]["learning_rate"] = {"1": 1e-3}
    judgement = judge(oracle, ours, rtol=1e-4)
    training = Phase("training", judgement=judgement, limitation=limitation("VER006", "its reads: Read/ReadVariableOp"))
    result = VerifyResult(program=Program(Path("run_classifier.py"), ("--output_dir={model_dir}",)), oracle="tf115",
                          oracle_reason="tf.contrib", sides=[SideResult("migrated", phases=[training])])
    lines = diagnosis(result)
    assert any("phase not judged: " in line and "VER006" in line for line in lines), lines
    [missing] = [line for line in lines if "missing on this side" in line]
    assert "scalars.loss (2)" in missing and "evaluation.eval.accuracy (1)" in missing, missing
    [added] = [line for line in lines if "written by this side, not by the oracle" in line]
    assert "scalars.learning_rate (1)" in added


@pytest.mark.slow
def test_a_migrated_side_stopped_by_a_dead_import_shows_the_codemod_s_finding(tmp_path):
    """Issue 29 (tensorflow/tpu's amoeba_net.py): the migrated side said only `No module named
    'tensorflow.contrib'`; the codemod had reported that import (MIG306) and why it stays. Real
    codemod report, real run of the migrated copy on current TensorFlow."""
    import subprocess
    import sys

    from verify.dead_import import finding_for_dead_import
    from verify.environments import program_env
    from verify.sides import migrate_tree

    source = tmp_path / "models"
    source.mkdir()
    (source / "amoeba.py").write_text(
        # (a contrib *module* import is bound to the bridge's TF1 module now; a name import still fails)
        "import tensorflow as tf\n\nfrom tensorflow.contrib.training import SummaryAtEndHook\n\n"
        "def model_fn(features):\n  return SummaryAtEndHook\n\n"
        "x = tf.contrib.framework.nest.flatten([1])\n")
    work = tmp_path / "work"
    work.mkdir()
    migrated = migrate_tree(source, work / "migrated", log=work / "migrate.log")
    completed = subprocess.run([sys.executable, str(migrated / "amoeba.py")], capture_output=True, text=True,
                               env=program_env(), timeout=300)
    assert "No module named 'tensorflow.contrib'" in completed.stderr
    finding = finding_for_dead_import(completed.stderr, (work / "migrate.log").read_text(), migrated)
    assert finding is not None and "amoeba.py:3:1: MIG306 error: `from tensorflow.contrib.training import SummaryAtEndHook` fails" in finding
    other = finding_for_dead_import(completed.stderr.replace("amoeba.py", "other.py"),
                                    (work / "migrate.log").read_text(), migrated)
    assert other is None  # a finding of another file is not this import's
