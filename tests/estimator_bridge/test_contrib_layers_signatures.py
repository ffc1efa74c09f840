"""Every tf.contrib.layers function the bridge serves has TF 1.15's signature.

Legacy code passes contrib's arguments positionally (`batch_norm(x, 0.9, True, True, 1e-5)`,
`separable_conv2d(x, None, 3, 1)`) and through arg_scope by name, so the functions
compat/contrib_layers.py, contrib_batch_norm.py and contrib_helpers.layer_norm must keep TF 1.15's
parameter names, order, kinds and literal defaults (objects such as initializers and activations
are compared as "an object"; their behaviour is what the oracle fixtures check). TF 1.15's side is
printed by oracle A; the names are the codemod's table, so a name added there is checked here.
"""

import json

import pytest

from migrate.tables.contrib import CONTRIB_LAYERS
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

NAMES = (*CONTRIB_LAYERS, "batch_norm", "layer_norm")

_DUMP = """
import inspect, json, sys
names = sys.argv[2].split(",")
if sys.argv[1] == "tf115":
    import tensorflow as tf
    get = lambda name: getattr(tf.contrib.layers, name)
else:
    from estimator_bridge.compat import contrib_batch_norm, contrib_helpers, contrib_layers
    get = lambda name: getattr(contrib_batch_norm if name == "batch_norm" else
                               contrib_helpers if name == "layer_norm" else contrib_layers, name)

def default(value):
    if value is inspect.Parameter.empty:
        return "required"
    if value is None or isinstance(value, (bool, int, float, str, tuple)):
        return repr(value)
    return "an object"

print(json.dumps({name: [[p.name, str(p.kind), default(p.default)]
                         for p in inspect.signature(get(name)).parameters.values()]
                  for name in names}))
"""


@pytest.mark.oracle
def test_every_ported_contrib_layers_function_has_tf115_s_signature():
    expected = run_json(oracle_python("tf115"), "-c", _DUMP, "tf115", ",".join(NAMES))
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), "-c", _DUMP, "bridge", ",".join(NAMES), env=env)
    assert sorted(ours) == sorted(expected) == sorted(NAMES)
    for name in NAMES:
        assert ours[name] == expected[name], (name, json.dumps(expected[name]))
