"""Which files at the top of a model_dir the harvester reads as the program's outputs.

google-research/uda's image/main.py (FLAGS.json) and google-research/simclr's run.py (flags.json)
dump `FLAGS.flag_values_dict()` into the model_dir. Those files hold the command line plus the absl
flags TensorFlow defines on import, whose set and defaults differ between versions: verify compared
them position by position and failed both current sides of UDA on flags that are not the program's
(current TF defines six tensor-tracer flags TF 1.15 did not; pfor's
op_conversion_fallback_to_while_loop is True there, False in TF 1.15).
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support.oracles import REPO_ROOT, oracle_python
from verify.harvest import is_flags_dump, read_outputs

FLAGS_DUMP = {"logtostderr": False, "alsologtostderr": False, "verbosity": 0, "stderrthreshold": "fatal",
              "train_steps": 4, "learning_rate": 0.03, "delta_threshold": 0.5}


def test_a_dump_of_the_absl_flags_is_not_an_output(tmp_path):
    (tmp_path / "FLAGS.json").write_text(json.dumps(FLAGS_DUMP))
    (tmp_path / "result.json").write_text(json.dumps({"top_1_accuracy": 0.25, "global_step": 4}))
    (tmp_path / "eval_results.txt").write_text("loss = 1.5\n")
    assert read_outputs(str(tmp_path)) == {"result.json": [0.25, 4.0], "eval_results.txt": [1.5]}


def test_only_json_objects_holding_absl_s_own_flags_count_as_flag_dumps():
    assert is_flags_dump("flags.json", json.dumps(FLAGS_DUMP))
    assert not is_flags_dump("flags.txt", json.dumps(FLAGS_DUMP))
    assert not is_flags_dump("params.json", json.dumps({"learning_rate": 0.1, "verbosity": 1}))
    assert not is_flags_dump("list.json", json.dumps([1, 2]))
    assert not is_flags_dump("broken.json", "{not json")


@pytest.mark.oracle
def test_the_harvester_still_parses_on_python_3_7():
    """harvest.py runs inside the TF 1.15 oracle (CPython 3.7)."""
    completed = subprocess.run([str(oracle_python("tf115")), "-c",
                                "import ast; ast.parse(open('verify/harvest.py').read())"],
                               cwd=REPO_ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
