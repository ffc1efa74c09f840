"""Property tests: on arbitrary valid Python (hypothesmith), the engine never crashes, never returns
code that does not parse, and leaves code without TensorFlow byte-identical."""

import libcst as cst
from hypothesis import HealthCheck, assume, given, settings
import hypothesmith

from migrate.engine import SkipFile, migrate_bytes, migrate_text

# Health checks stay on except speed and size (hypothesmith is slow to draw from): a run whose
# examples are mostly rejected fails with filter_too_much instead of passing on a handful.
QUIET_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large]
TF_LINES = "import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n"


@settings(max_examples=15, deadline=None, suppress_health_check=QUIET_CHECKS)
@given(hypothesmith.from_grammar())
def test_arbitrary_python_with_tensorflow_never_breaks(source):
    text = TF_LINES + source
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError:
        assume(False)  # the prefix joined with the generated code is not valid (a leading indent)
    try:
        migrated, _ = migrate_text(text)
    except SkipFile as skip:
        assert skip.finding.code in ("MIG001", "MIG002")
        return
    cst.parse_module(migrated)
    assert "tf.compat.v1.train.AdamOptimizer" in migrated


@settings(max_examples=15, deadline=None, suppress_health_check=QUIET_CHECKS)
@given(hypothesmith.from_grammar())
def test_code_without_tensorflow_comes_back_unchanged(source):
    result = migrate_bytes(source.encode("utf-8", "surrogatepass"), "random.py")
    assert result.migrated is None
