"""The compat runner knows every module path TF 1.15 had under tf.contrib and tensorflow_estimator.

`estimator_bridge/compat/tf115_modules.py` is generated from the TF 1.15 oracle's installed
packages; this oracle test regenerates it and requires the checked-in table to be identical, so
the list of importable-but-removed modules (namespace.RemovedModule) cannot drift. The programs
that import them are in test_real_patterns.py.
"""

import subprocess

import pytest

from estimator_bridge.compat import tf115_modules
from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python

GENERATOR = REPO_ROOT / "estimator_bridge" / "compat" / "generate_tf115_modules.py"
TABLE = REPO_ROOT / "estimator_bridge" / "compat" / "tf115_modules.py"


@pytest.mark.oracle
def test_the_table_is_what_tf_1_15_has_now():
    generated = subprocess.run([str(oracle_python("tf115")), str(GENERATOR)], capture_output=True,
                               text=True, timeout=300, env=oracle_env(), check=True).stdout
    assert generated == TABLE.read_text(), (
        "regenerate: .oracle/tf115/bin/python estimator_bridge/compat/generate_tf115_modules.py "
        "> estimator_bridge/compat/tf115_modules.py")


def test_the_table_holds_what_real_programs_import():
    for path in ("metrics", "tpu.python.tpu.async_checkpoint", "training.python.training.evaluation",
                 "slim", "seq2seq"):
        assert path in tf115_modules.CONTRIB, path
    assert "canned.dnn" in tf115_modules.ESTIMATOR
    assert len(tf115_modules.CONTRIB) > 800  # 934 in TF 1.15.0
    assert not any(path.endswith("_test") for path in tf115_modules.CONTRIB)
