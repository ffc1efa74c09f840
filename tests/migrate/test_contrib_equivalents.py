"""tf.contrib names rewritten to a current spelling compute what TF 1.15 computed.

Fixture contrib/contrib_equivalents (from held-out real files: google-research/mixmatch
libml/layers.py's `tf.contrib.distributions.Categorical`/`kl_divergence`, google-research/morph-net
configurable_ops.py's `tf.contrib.framework.get_name_scope`, tensorflow/adanet improve_nas's
`tf.contrib.estimator.clip_gradients_by_norm` and `tf.contrib.opt.LazyAdamOptimizer`): its
`compute()` runs on TF 1.15 (oracle A) as written and on current TensorFlow migrated. The
distributions and the name scope are equal; three training steps of a Momentum optimizer wrapped
by clip_gradients_by_norm and of LazyAdam on an embedding table with a repeated index (sparse
updates: TF 1.15's RefVariable path against current TF's resource-variable path) agree within
rtol 1e-6 (measured 6.6e-7 on LazyAdam's second moment; float32 kernels of two TF versions).
"""

import pytest

from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "run_fixture_compute.py"
FIXTURE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "contrib" / "contrib_equivalents"
RTOL = 1e-6


@pytest.mark.oracle
def test_migrated_contrib_equivalents_compute_what_tf_1_15_computed():
    expected = run_json(oracle_python("tf115"), PROGRAM, f"{FIXTURE}.before.py", cwd=REPO_ROOT)
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, f"{FIXTURE}.after.py", env=env, cwd=REPO_ROOT)
    assert (expected.pop("tensorflow"), ours.pop("tensorflow")) == ("1", "2")
    assert sorted(ours) == sorted(expected)
    for key in ("scope", "clipped_name"):
        assert ours.pop(key) == expected.pop(key)
    for key, value in expected.items():
        assert_close(ours[key], value, rtol=RTOL, what=key)
