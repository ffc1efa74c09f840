"""verify on a Keras script with no model_dir (issue 26 item 4): tensorflow/tpu's
models/experimental/keras_colab/shakespeare_lstm.py shape (tests/verify/programs/keras_script/):
`keras_to_tpu_model` behind `--use_tpu`, `fit_generator`, weights saved to a `.h5` path, a stateful
prediction model loading them. It runs like a notebook (verify/notebook_script.py): in its run's
folder, its fit/evaluate/predict numbers and final weights recorded (verify/keras_record.py) and
compared, made tiny by overrides applied to the script itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verify.program import BadProgram, NotebookOverrides, Program, check_program
from verify.sides import NOTEBOOK_SCRIPT, script_command

SCRIPT = Path(__file__).resolve().parent / "programs" / "keras_script" / "keras_lstm_script.py"
REPO = Path(__file__).resolve().parents[2]


def test_a_keras_script_without_model_dir_runs_recorded_with_overrides():
    program = Program(SCRIPT, ("--use_tpu=false",), notebook=NotebookOverrides(after=(("EPOCHS", "EPOCHS = 2"),)))
    check_program(program)
    assert program.is_keras_script and program.recorded
    assert script_command(SCRIPT, program.recorded) == [str(NOTEBOOK_SCRIPT), str(SCRIPT)]
    with pytest.raises(BadProgram, match="never binds EPOCH"):
        check_program(Program(SCRIPT, (), notebook=NotebookOverrides(after=(("EPOCH", "EPOCH = 2"),))))
    with pytest.raises(BadProgram, match="--skip-cell skips a notebook's cells"):
        check_program(Program(SCRIPT, (), notebook=NotebookOverrides(skip_cells=("fit_generator",))))


def test_a_script_without_keras_still_needs_its_model_dir(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import tensorflow as tf\n")
    with pytest.raises(BadProgram, match="must name its model_dir"):
        check_program(Program(script, ("--steps=3",)))


def test_a_script_runs_with_its_arguments_its_folder_first_and_percent_lines_kept(tmp_path):
    """A script is one cell: no IPython conversion (a line starting with `%` continues an expression),
    its own folder (not verify/, which has a program.py) first on sys.path."""
    (tmp_path / "program.py").write_text("NAME = 'the script s own program module'\n")
    script = tmp_path / "main.py"
    script.write_text("from __future__ import print_function\nimport sys, program\n"
                      "text = ('%s|%s'\n        % (program.NAME, sys.argv[1:]))\nprint(text)\n")
    completed = subprocess.run([sys.executable, str(NOTEBOOK_SCRIPT), str(script), "--a=1", "b"],
                               capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "the script s own program module|['--a=1', 'b']"


def _text(path: Path) -> Path:
    words = "to be or not the king verily we must go love night sweet".split()
    path.write_text(" ".join(words[(7 * i + i // 3) % len(words)] for i in range(400)))
    return path


# The script made tiny as a user would (the overrides are applied to the original, then migrated):
# its constants, a seeded numpy (its batches come from np.random), and a reseed before sampling:
# fit on a Python generator prefetches batches (TF 1.15's enqueuer up to 10 ahead, Keras 3 another
# count), so the global RNG reaches the sampling loop in another state on each Keras.
TINY = ("--set", "WEIGHTS_FILE='bard.weights.h5'", "--set", "EMBEDDING_DIM=8", "--set", "SEQ_LEN=12",
        "--set", "BATCH_SIZE=4", "--set", "STEPS_PER_EPOCH=3", "--set", "EPOCHS=2", "--set", "PREDICT_LEN=4",
        "--after", "np=np.random.seed(0)",
        "--replace", "prediction_model.reset_states()", "prediction_model.reset_states(); np.random.seed(1)")


@pytest.mark.oracle
@pytest.mark.slow
def test_the_keras_script_is_recorded_and_compared_like_a_notebook(tmp_path):
    """Oracle TF 1.15 (tf.contrib); the migrated side from the oracle's start weights: every batch's
    loss and accuracy, each epoch's, the final weights and every predict() call compared, PASS.

    The script's TF1 RMSProp (on an Embedding: sparse gradients) becomes TF 1.x's RMSProp for Keras 3
    (KerasCompileOptimizers; plain gradient descent replaced it here while Keras 3's RMSprop, whose
    accumulator starts at 0, was the rewrite). The LSTM runs on its TF 1.x defaults (hard_sigmoid
    gates), which the codemod writes out (KerasRnnTf1Defaults). The oracle's spread runs start from
    its recorded start weights moved 1 ulp (verify/nudge.py)."""
    data = _text(tmp_path / "text.txt")
    work = tmp_path / "work"
    argv = [sys.executable, "-m", "migrate", "verify", str(SCRIPT), "--work-dir", str(work), "-q", "--side", "migrated",
            "--set", f"TEXT_FILE={str(data)!r}", *TINY,
            "--", "--use_tpu=false"]
    from verify.environments import program_env

    env = {**program_env(), "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    completed = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=1500)
    text = completed.stdout + completed.stderr
    report = json.loads((work / "verify.json").read_text())
    assert report["oracle"] == "tf115", text
    # the spread runs start from the recorded weights moved 1 ulp (seeds 2, 3): no longer bit-identical
    # to run 1 (they were with thread counts alone), a spread of 3.0e-7
    assert [run.get("nudge_seed") for run in report["oracle_runs"]] == [None, 2, 3], text
    assert not report["oracle_deterministic"], text
    record = json.loads((work / "oracle" / "run1" / "keras_record" / "record.json").read_text())
    assert sorted(record["scalars"]["keras/batch/loss"], key=int) == [str(step) for step in range(1, 7)]
    assert len(record["outputs"]) == 27 + 4  # the seed's characters, then one call per sampled one
    [side] = report["sides"]
    [training] = side["phases"]
    assert completed.returncode == 0 and training["status"] == "PASS", text
    sections = training["sections"]
    assert sections["scalars"]["compared"] == 6 * 2 + 2 * 2  # (loss, accuracy) per batch and per epoch
    assert sections["variables"]["compared"] > 0
    assert sections["outputs"]["compared"] == (27 + 4) * 2 * 256 // 2  # 2 rows x 256 probabilities per call
    assert "no exact phase: a Keras program leaves no checkpoint" in text
