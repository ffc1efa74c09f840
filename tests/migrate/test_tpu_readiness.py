"""TPU readiness findings (MIG401-MIG406): every rule on a positive fixture, none on TPU-ready code."""

from pathlib import Path

from migrate.codemods.tpu_readiness import readiness_findings
from migrate.findings import CODES

FIXTURES = Path(__file__).parent / "fixtures_readiness"


def _located(findings):
    return [f"{f.location.line}:{f.location.column + 1} {f.code}" for f in findings]


def test_every_rule_fires_where_the_fixture_says():
    source = FIXTURES / "readiness.py"
    findings = readiness_findings(source.read_text(), str(source))
    expected = [line for line in (FIXTURES / "readiness.findings").read_text().splitlines()
                if line and not line.endswith("MIG101")]
    assert _located(findings) == expected
    assert {f.code for f in findings} == {f"MIG40{i}" for i in range(1, 7)}
    assert all(f.hint for f in findings)


def test_tpu_ready_code_gets_no_finding():
    source = FIXTURES / "tpu_ready.noop.py"
    assert readiness_findings(source.read_text(), str(source)) == []


def test_code_that_does_not_target_tpus_is_not_judged():
    assert readiness_findings("import tensorflow as tf\nds = tf.data.Dataset.range(9).batch(3)\n") == []


def test_a_host_call_nested_in_model_fn_may_write_summaries():
    source = (
        "import tensorflow as tf\n\n"
        "def model_fn(features, labels, mode, params):\n"
        "    def host_call_fn(gs, loss):\n"
        "        tf.summary.scalar('loss', loss[0], step=gs[0])\n"
        "    tf.summary.scalar('in_model', features)\n"
        "    return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(mode, host_call=(host_call_fn, [features]))\n")
    assert _located(readiness_findings(source)) == ["6:5 MIG404"]


def test_the_codes_are_registered():
    assert {f"MIG40{i}" for i in range(1, 7)} <= set(CODES)
