"""Property tests: on arbitrary valid Python (hypothesmith), the engine never crashes, never returns
code that does not parse, and leaves code without TensorFlow byte-identical."""

import libcst as cst
from hypothesis import HealthCheck, given, settings
import hypothesmith

from migrate.engine import SkipFile, migrate_bytes, migrate_text

TF_LINES = "import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n"


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar())
def test_arbitrary_python_with_tensorflow_never_breaks(source):
    text = TF_LINES + source
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError:
        return  # the prefix joined with the generated code is not valid (e.g. a leading indent)
    try:
        migrated, _ = migrate_text(text)
    except SkipFile as skip:
        assert skip.finding.code in ("MIG001", "MIG002")
        return
    cst.parse_module(migrated)
    assert "tf.compat.v1.train.AdamOptimizer" in migrated


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar())
def test_code_without_tensorflow_comes_back_unchanged(source):
    result = migrate_bytes(source.encode("utf-8", "surrogatepass"), "random.py")
    assert result.migrated is None
