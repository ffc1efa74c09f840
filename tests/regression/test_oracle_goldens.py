"""Each committed golden is what its oracle says today: re-recorded live and compared.

The recorder runs every example twice in its oracle (TF 1.15 for tf.contrib, TF 2.15 for
tf.compat.v1.estimator) and refuses to produce a golden when the two runs differ. The live
result must then equal the committed one exactly: two oracle runs on one machine agreed to the
last bit for every example (measured when recording), so any difference means the golden or the
oracle environment drifted, and the regression tests would be holding the bridge to stale numbers.
"""

import pytest

from legacy_examples.catalog import EXAMPLES
from verify.compare import compare, load_golden
from verify.goldens import record_live

pytestmark = pytest.mark.oracle


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.name for example in EXAMPLES])
def test_golden_equals_a_live_oracle_recording(example, tmp_path):
    committed = load_golden(example.golden_path)
    live, _ = record_live(example, tmp_path)
    assert live["tensorflow"] == committed["tensorflow"]
    comparison = compare(committed["result"], live["result"], floor=1e-30)
    assert comparison.failures(rtol=0.0) == [], (
        f"{example.name}: the oracle no longer produces the committed golden (max relative "
        f"{comparison.max_relative:.2e}); re-record with `python -m legacy_examples.record "
        f"{example.name}` if the oracle environment changed on purpose.")
    assert live["result"].get("ckpt0_sha256") == committed["result"].get("ckpt0_sha256")
    assert live["result"] == committed["result"]
