"""Each committed golden is what its oracle says today: re-recorded live and compared.

The recorder runs every example twice in its oracle (TF 1.15 for tf.contrib, TF 2.15 for
tf.compat.v1.estimator) and refuses to produce a golden when the two runs differ. On the machine
the golden was recorded on (same CPU fingerprint, verify/machine.py) the live result must then
equal the committed one exactly: any difference means the golden or the oracle environment
drifted, and the regression tests would be holding the bridge to stale numbers.

On another CPU the oracle's own last bits move (TF 1.15's Eigen kernels block their sums by the
CPU's cache sizes). Measured on an AMD EPYC (family 26) against goldens recorded on the first
machine, max relative per example: mnist_tpu 9.3e-7, bert_classifier 1.2e-5 (final weights;
losses 4.2e-7), resnet_tpu 5.1e-6 (predictions), iris_tpu 4.9e-7, keras_tpu 5.6e-7,
keras_tpu_weights 3.7e-7; the TF 2.15 examples (mnist_tpu_v1, kaggle_tpu) were exact; initial
checkpoints identical. There the live oracle must stay within the tolerances the catalog holds
the bridge to for that example: otherwise the bridge's regression tests could not tell the
bridge's error from the machine's, and the golden would need re-recording on this machine.

Unless the example keeps a recording made on this CPU (`python -m verify.goldens --this-cpu`,
`golden.cpu-<id>.json`): then the live oracle must equal that recording exactly. resnet_tpu has
one for the AMD EPYC of 2026-11-25: there TF 1.15's loss first differs from the golden at step 9
(1e-7 relative), the difference grows through the 40 training steps (8e-6 at step 17, 1.3e-2 at
step 28) and the eval loss is 1.4896 against the golden's 1.6540; learning-rate and epoch
schedules identical, two runs bit-identical (not a race). The bridge on that CPU still matches
the golden (make demo: 8.0e-6), so the bridge is held to the golden and the oracle to its CPU's
recording.
"""

import pytest

from legacy_examples.catalog import EXAMPLES
from verify.compare import compare, load_golden
from verify.goldens import cpu_recording_path, record_live
from verify.machine import cpu_fingerprint

pytestmark = pytest.mark.oracle

RERECORD = "re-record with `python -m verify.goldens {name}` if the oracle environment changed on purpose"


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.name for example in EXAMPLES])
def test_golden_equals_a_live_oracle_recording(example, tmp_path):
    committed = load_golden(example.golden_path)
    live, _ = record_live(example, tmp_path)
    assert live["tensorflow"] == committed["tensorflow"]
    assert live["result"].get("ckpt0_sha256") == committed["result"].get("ckpt0_sha256"), (
        f"{example.name}: the oracle's initial checkpoint changed; " + RERECORD.format(name=example.name))
    this_cpu = cpu_recording_path(example)
    if this_cpu.exists():
        recorded = load_golden(this_cpu)
        assert recorded["machine"] == cpu_fingerprint()
        assert recorded["result"]["ckpt0_sha256"] == committed["result"]["ckpt0_sha256"]
        comparison = compare(recorded["result"], live["result"], floor=1e-30)
        assert comparison.failures(rtol=0.0) == [], (
            f"{example.name}: the oracle no longer produces this CPU's recording {this_cpu.name} "
            f"(max relative {comparison.max_relative:.2e}); " + RERECORD.format(name=example.name))
        assert live["result"] == recorded["result"]
        return
    comparison = compare(committed["result"], live["result"], floor=1e-30)
    if committed.get("machine") == cpu_fingerprint():
        assert comparison.failures(rtol=0.0) == [], (
            f"{example.name}: on the machine it was recorded on, the oracle no longer produces the "
            f"committed golden (max relative {comparison.max_relative:.2e}); "
            + RERECORD.format(name=example.name))
        assert live["result"] == committed["result"]
    else:
        assert comparison.failures(example.rtol, section_rtol=example.section_rtol) == [], (
            f"{example.name}: recorded on another CPU ({committed.get('machine', 'not named')}), "
            f"the oracle here differs from the golden by more than the tolerances the bridge is "
            f"held to (max relative {comparison.max_relative:.2e}); " + RERECORD.format(name=example.name))

