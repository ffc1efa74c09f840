"""Escalation end to end (`verify --escalate-runs`): a side whose accuracy flips while every loss
stays put gets more oracle runs and is judged again against all of them; a side with a learning
rate off by 1% still fails and gets none.

The program (tests/verify/programs/tied_logits.py) evaluates 4 examples whose logits are exactly
(0, 0); the side breaks the tie the other way (4 of 64 counted wrong, the same eval loss), so its
accuracy is a count ratio every oracle run repeats and the FAIL is narrow. No oracle run ever
breaks the tie otherwise, so the escalated side still fails, with the added runs in its note.
One escalation run keeps this cheap; the two verifies share their oracle runs (--reuse-oracle),
so the second runs its side only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.verify.test_fair_judge_live import broken_copy
from tests.verify.test_verify_live import phase
from verify.environments import program_env

pytestmark = [pytest.mark.oracle, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).resolve().parent / "programs" / "tied_logits.py"
TIE = "tf.argmax(logits, axis=1))"
OTHER_TIE_BREAK = "1 - tf.argmax(tf.reverse(logits, [1]), axis=1))"  # the last of equal logits


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    """One oracle-run cache for the module: the second verify reuses the first one's oracle runs."""
    return tmp_path_factory.mktemp("cache")


def verify(tmp_path: Path, cache: Path, side: Path) -> tuple[int, str, dict]:
    work = tmp_path / "work"
    argv = [sys.executable, "-m", "verify", str(PROGRAM), "--work-dir", str(work), "-q", "--steps", "10",
            "--no-exact", "--side", "migrated", "--migrated", str(side), "--reuse-oracle", "--escalate-runs", "1",
            "--", "--model_dir={model_dir}", "--train_steps={steps}"]
    env = program_env()
    env.update(PYTHONPATH=str(REPO), COLUMNS="200", XDG_CACHE_HOME=str(cache))
    completed = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=1500)
    report = json.loads((work / "verify.json").read_text())
    return completed.returncode, completed.stdout + completed.stderr, report


def test_an_accuracy_flipped_beside_unchanged_losses_is_escalated(tmp_path, cache):
    code, text, report = verify(tmp_path, cache, broken_copy(tmp_path, PROGRAM, TIE, OTHER_TIE_BREAK))
    assert code == 1, text
    assert report["escalation"]["runs_before"] == 3 and report["escalation"]["runs_added"] == 1
    assert [run.get("escalation", False) for run in report["oracle_runs"]] == [False, False, False, True]
    training = phase(report, "migrated", "training")
    assert training["status"] == "FAIL" and training["oracle_runs"] == 4
    [note] = [note for note in training["notes"] if note.startswith("escalated:")]
    assert "evaluation.eval.accuracy.10 45/64 against 49/64 in all 3 oracle runs" in note, note
    assert "; 1 more oracle run(s) in " in note and note.endswith("judged again against all 4: FAIL"), note
    assert "escalated: a side failed narrowly against 3 oracle runs, 1 more run(s)" in text


def test_a_learning_rate_off_by_1_percent_fails_and_is_not_escalated(tmp_path, cache):
    side = broken_copy(tmp_path, PROGRAM, 'GradientDescentOptimizer(params["learning_rate"])',
                       'GradientDescentOptimizer(params["learning_rate"] * 1.01)')
    code, text, report = verify(tmp_path, cache, side)
    assert code == 1, text
    assert report["escalation"] is None and len(report["oracle_runs"]) == 3
    training = phase(report, "migrated", "training")
    assert training["status"] == "FAIL"
    assert not any(note.startswith("escalated:") for note in training["notes"])
