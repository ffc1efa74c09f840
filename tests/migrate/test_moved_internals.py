"""TensorFlow internals that moved: a migrated custom optimizer's Apply* ops compute TF 1.15's updates.

fastalgo/mnist_tpu's LARS/LAMB optimizers (and other TPU-era optimizers) called
`training_ops.apply_momentum` / `resource_apply_momentum` from their `_apply_dense` methods. TF 1.15's
tensorflow.python.training.training_ops re-exported the generated ops; TF 2.21 has no such module,
so the import killed the file (MIG306). The codemod imports TF 2's tensorflow.python.ops.gen_training_ops
under the same name (fixtures/tf1/moved_training_ops). Here the fixture's optimizer takes two steps
on a ref variable and a resource variable in TF 1.15 and, migrated, in TF 2.21: the same values.
"""

import sys

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python, probe_program

pytestmark = [pytest.mark.oracle, pytest.mark.slow]

FIXTURE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "tf1" / "moved_training_ops.before.py"
# two momentum steps of the fixture's optimizer on a ref and a resource variable (graph mode)
PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import program
import tensorflow as tf
v1 = tf.compat.v1
v1.disable_eager_execution()

class Optimizer(program.LARSOptimizer):
    def __init__(self):
        super(Optimizer, self).__init__(use_locking=False, name="LARS")
        self._lr, self._momentum = 0.1, 0.9
    def _create_slots(self, var_list):
        for var in var_list:
            self._zeros_slot(var, "momentum", self._name)

out = {}
with v1.Graph().as_default():
    for resource in (False, True):
        var = v1.get_variable("w%d" % resource, initializer=[1.0, -2.0, 3.0], use_resource=resource)
        step = Optimizer().minimize(v1.reduce_sum(var * var * [0.5, 1.5, -0.25]))
        with v1.Session() as session:
            session.run(v1.global_variables_initializer())
            session.run(step)
            session.run(step)
            out["resource" if resource else "ref"] = [float(x) for x in session.run(var)]
print(json.dumps(out))
"""



def test_a_migrated_optimizer_on_training_ops_steps_as_tf115(tmp_path):
    original = FIXTURE.read_text()
    tf115 = probe_program(oracle_python("tf115"), tmp_path / "tf115", original, PROBE, oracle_env())

    migrated, findings = migrate_text(original, "program.py")
    assert findings == []
    env = {**oracle_env(), "PYTHONPATH": str(REPO_ROOT)}
    current = probe_program(sys.executable, tmp_path / "current", migrated, PROBE, env)
    assert set(current) == set(tf115) == {"ref", "resource"}
    for kind in tf115:
        assert tf115[kind] != [1.0, -2.0, 3.0]     # the steps moved the variable
        np.testing.assert_allclose(current[kind], tf115[kind], rtol=1e-7)
