"""TPUReadiness (MIG401-406): reports, never rewrites; only in files that target TPUs. Every rule on a
fixture: tests/migrate/test_tpu_readiness.py; the CLI flag --tpu-readiness there too."""

from migrate.codemods.tpu_readiness import readiness_findings


def _found(source: str) -> list[str]:
    return [f"{f.location.line}:{f.location.column + 1} {f.code}" for f in readiness_findings(source)]


def test_a_tpu_input_pipeline_without_drop_remainder_and_with_python_is_reported():
    assert _found(
        "import tensorflow as tf\n"
        "strategy = tf.distribute.TPUStrategy(resolver)\n"
        "ds = tf.data.TFRecordDataset(files).map(lambda x: tf.py_function(f, [x], tf.float32))\n"
        "ds = ds.batch(1024)\n") == ["3:51 MIG402", "4:6 MIG401"]


def test_the_same_pipeline_in_code_that_does_not_target_tpus_is_not_judged():
    assert _found("import tensorflow as tf\nds = tf.data.Dataset.range(9).batch(5)\n") == []
