"""TPU readiness findings (MIG401-MIG406): every rule on a positive fixture, none on TPU-ready code."""

import re
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


# ---- in estimator-migrate: --tpu-readiness ----------------------------------------------------

def _notebook(*cells: str) -> str:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# TPU notebook")] + [
        nbformat.v4.new_code_cell(cell) for cell in cells]
    return nbformat.writes(notebook)


def test_the_cli_reports_readiness_in_tpu_files_and_notebooks_with_the_flag_only(tmp_path, capsys):
    from migrate.cli import main

    (tmp_path / "train.py").write_text((FIXTURES / "readiness.py").read_text())
    (tmp_path / "kaggle.ipynb").write_text(_notebook(
        "import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TPUClusterResolver()",
        "strategy = tf.distribute.TPUStrategy(resolver)\n"
        "dataset = tf.data.TFRecordDataset(files).batch(100)"))
    (tmp_path / "cpu_only.py").write_text("import tensorflow as tf\nds = tf.data.Dataset.range(9).batch(5)\n")

    main([str(tmp_path), "--check", "-j", "1", "--select", "MIG4"])
    assert "MIG4" not in capsys.readouterr().out  # not without the flag

    main([str(tmp_path), "--check", "-j", "1", "--tpu-readiness", "--select", "MIG4"])
    out = capsys.readouterr().out
    expected = [line for line in (FIXTURES / "readiness.findings").read_text().splitlines()
                if line and not line.endswith("MIG101")]
    train = re.compile(re.escape(str(tmp_path / "train.py")) + r":(\d+):(\d+): (MIG\d+)")
    assert [f"{m[1]}:{m[2]} {m[3]}" for m in map(train.match, out.splitlines()) if m] == expected
    # The notebook's finding is located by cell (cell 3 is the second code cell) and line.
    assert f"{tmp_path / 'kaggle.ipynb'}:cell 3:2: MIG401" in out
    assert f"{tmp_path / 'kaggle.ipynb'}:cell 3:2: MIG403" in out
    assert not re.search(r"cpu_only.py:\d+:\d+: MIG4", out)
