"""A contrib module import the codemod cannot drop no longer stops the migrated file from importing.

tensorflow/tpu's AmoebaNet (models/official/amoeba_net/amoeba_net_model.py) keeps
`from tensorflow.contrib import tpu as contrib_tpu` for one line on its TPU-only path,
`contrib_tpu.tpu.TPUEstimatorSpec`, a name TF 1.15 did not have either. On TF 1.15 the module
imports and only that line raises AttributeError; kept as written, on TF 2.21 the import raised
ImportError and no path of the file ran. The codemod binds the name to the compat runner's TF1
module (`estimator_bridge.compat.v1.contrib.tpu`): the file imports, the line still fails, and
it is reported (fixtures/contrib/kept_contrib_module_import).
"""

import sys

import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python, probe_program

pytestmark = [pytest.mark.oracle, pytest.mark.slow]

FIXTURE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "contrib" / "kept_contrib_module_import.before.py"
# imports the module, then asks for the name its TPU-only line uses
PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import program
try:
    program.contrib_tpu.tpu.TPUEstimatorSpec
    outcome = "found"
except AttributeError:
    outcome = "AttributeError"
print(json.dumps({"imported": callable(program.model_fn), "tpu_line": outcome}))
"""



def test_the_migrated_file_imports_and_fails_only_where_tf115_failed(tmp_path):
    original = FIXTURE.read_text()
    tf115 = probe_program(oracle_python("tf115"), tmp_path / "tf115", original, PROBE, oracle_env())
    assert tf115 == {"imported": True, "tpu_line": "AttributeError"}

    migrated, findings = migrate_text(original, "program.py")
    assert "tensorflow.contrib" not in migrated
    assert [(f.location.line, f.code) for f in findings] == [(20, "MIG301")]
    env = {**oracle_env(), "PYTHONPATH": str(REPO_ROOT)}
    assert probe_program(sys.executable, tmp_path / "current", migrated, PROBE, env) == tf115
