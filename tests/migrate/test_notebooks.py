"""Notebooks: code cells as one module, IPython syntax masked and restored, only changed cells written."""

import difflib
import json

import nbformat
import pytest

from migrate.notebooks import migrate_notebook


def notebook(*cells, indent=1, language="python") -> bytes:
    """A notebook as Jupyter writes it (nbformat: sources as line lists, sorted keys, indent 1)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": language}
    nb.cells = list(cells)
    text = nbformat.writes(nb)
    if indent != 1:
        text = json.dumps(json.loads(text), indent=indent, ensure_ascii=False) + "\n"
    return text.encode()


def code(source, outputs=()):
    cell = nbformat.v4.new_code_cell(source)
    cell.outputs = list(outputs)
    return cell


@pytest.fixture
def tpu_notebook() -> bytes:
    return notebook(
        nbformat.v4.new_markdown_cell("# Training on a TPU (2018)"),
        code("!pip install -q tensorflow==1.15\n%matplotlib inline\nimport tensorflow as tf\nimport os"),
        code("%%bash\necho tf.contrib.tpu.TPUEstimator"),
        code("if 'COLAB_TPU_ADDR' in os.environ:\n    !echo on a tpu\n"
             "    resolver = tf.contrib.cluster_resolver.TPUClusterResolver()\nhp = tf.contrib.graph_editor.graph_replace(a=1)"),
        code("print('unchanged')", outputs=[nbformat.v4.new_output("stream", text="unchanged\n")]),
        code("est = tf.contrib.tpu.TPUEstimator(model_fn=None)\nest?",
             outputs=[nbformat.v4.new_output("stream", text="hello\n")]),
    )


def test_imports_of_cell_one_resolve_names_in_later_cells(tpu_notebook):
    result = migrate_notebook(tpu_notebook, "demo.ipynb")
    cells = json.loads(result.migrated)["cells"]
    assert "".join(cells[5]["source"]) == "est = estimator_bridge.TPUEstimator(model_fn=None)\nest?"
    assert "".join(cells[1]["source"]).endswith("import tensorflow as tf\nimport os\nimport estimator_bridge")


def test_magics_and_shell_lines_are_restored_also_inside_blocks(tpu_notebook):
    cells = json.loads(migrate_notebook(tpu_notebook, "demo.ipynb").migrated)["cells"]
    assert "".join(cells[1]["source"]).startswith("!pip install -q tensorflow==1.15\n%matplotlib inline\n")
    assert "".join(cells[3]["source"]) == (
        "if 'COLAB_TPU_ADDR' in os.environ:\n    !echo on a tpu\n"
        "    resolver = estimator_bridge.TPUClusterResolver()\nhp = tf.contrib.graph_editor.graph_replace(a=1)")


def test_non_python_cell_magics_unchanged_cells_and_outputs_are_untouched(tpu_notebook):
    before = json.loads(tpu_notebook)
    after = json.loads(migrate_notebook(tpu_notebook, "demo.ipynb").migrated)
    for index in (0, 2, 4):
        assert after["cells"][index] == before["cells"][index]
    assert after["cells"][5]["outputs"] == before["cells"][5]["outputs"]
    assert after["metadata"] == before["metadata"]


def test_json_layout_is_kept(tpu_notebook):
    migrated = migrate_notebook(tpu_notebook, "demo.ipynb").migrated.decode()
    original = tpu_notebook.decode()
    removed = [line for line in difflib.ndiff(original.splitlines(), migrated.splitlines()) if line.startswith("- ")]
    assert sorted(removed) == ['-     "    resolver = tf.contrib.cluster_resolver.TPUClusterResolver()\\n",',
                               '-     "est = tf.contrib.tpu.TPUEstimator(model_fn=None)\\n",',
                               '-     "import os"']
    assert migrated[-3:] == original[-3:]  # same ending (nbformat.writes adds no final newline)


def test_key_order_of_the_file_is_kept_even_when_not_sorted():
    data = json.loads(notebook(code("import tensorflow as tf\ntf.logging.info('x')")))
    reordered = {key: data[key] for key in reversed(list(data))}
    raw = (json.dumps(reordered, indent=1, ensure_ascii=False) + "\n").encode()
    migrated = migrate_notebook(raw, "order.ipynb").migrated
    assert list(json.loads(migrated)) == list(reordered)
    assert migrated.decode().startswith('{\n "nbformat_minor"')


def test_json_indentation_of_two_spaces_is_kept():
    data = notebook(code("import tensorflow as tf\ntf.logging.info('x')"), indent=2)
    migrated = migrate_notebook(data, "two.ipynb").migrated.decode()
    assert migrated.startswith('{\n  "cells": [\n    {\n')


def test_findings_are_located_by_cell_and_line(tpu_notebook):
    result = migrate_notebook(tpu_notebook, "demo.ipynb")
    assert [(f.code, f.location.render("demo.ipynb")) for f in result.findings] == [("MIG301", "demo.ipynb:cell 4:4")]


def test_a_notebook_without_changes_is_left_alone():
    data = notebook(code("import tensorflow as tf\nx = tf.constant(1)"))
    assert migrate_notebook(data, "clean.ipynb").migrated is None


def test_a_broken_cell_is_reported_at_its_cell_and_the_other_cells_are_migrated():
    # A Colab notebook with `print(f'{tf.')` in its cell 20 (issue 28) got MIG001 at "cell 3" and
    # was skipped whole: the broken cell is reported at its own line, the valid cells migrated.
    broken = "x = 1\nprint(f'{tf.')\n"
    data = notebook(code("import tensorflow as tf"), code("opt = tf.train.AdamOptimizer(0.1)"),
                    nbformat.v4.new_markdown_cell("text"), code(broken),
                    code("est = tf.contrib.tpu.TPUEstimator(model_fn=None)"))
    result = migrate_notebook(data, "broken.ipynb")
    assert not result.skipped
    errors = [f for f in result.findings if f.code == "MIG001"]
    assert [f.location.render("broken.ipynb") for f in errors] == ["broken.ipynb:cell 4:2"]
    cells = json.loads(result.migrated)["cells"]
    assert "".join(cells[1]["source"]) == "opt = tf.compat.v1.train.AdamOptimizer(0.1)"
    assert "".join(cells[3]["source"]) == broken
    assert "tf.contrib" not in "".join(cells[4]["source"])


def test_a_notebook_whose_every_cell_is_broken_is_skipped_with_one_finding():
    data = notebook(code("print 'hello'\nimport tensorflow as tf"), code("def broken(:\n    pass"))
    result = migrate_notebook(data, "broken.ipynb")
    assert result.skipped and result.migrated is None
    assert [f.code for f in result.findings] in (["MIG001"], ["MIG002"])


def test_a_non_python_kernel_is_not_touched():
    data = notebook(code("tf.contrib.tpu.TPUEstimator"), language="R")
    assert migrate_notebook(data, "r.ipynb").migrated is None


def test_migrating_a_notebook_twice_changes_nothing_the_second_time(tpu_notebook):
    first = migrate_notebook(tpu_notebook, "demo.ipynb")
    second = migrate_notebook(first.migrated, "demo.ipynb")
    assert second.migrated is None
    assert [f.code for f in second.findings] == [f.code for f in first.findings]


def test_an_indented_shell_line_opening_a_cell_is_masked_like_ipython_does():
    data = notebook(code("import tensorflow as tf"), code("  !ls\nopt = tf.train.AdamOptimizer(0.1)"))
    cells = json.loads(migrate_notebook(data, "indent.ipynb").migrated)["cells"]
    assert "".join(cells[1]["source"]) == "  !ls\nopt = tf.compat.v1.train.AdamOptimizer(0.1)"


def test_a_shell_line_continued_with_a_backslash_is_masked_to_its_end():
    # GoogleCloudPlatform/cloudml-samples notebooks/tpu/templates/tpu_lstm_keras/trainer.ipynb (heldout3):
    # `! gcloud compute tpus create ... \` then `  --zone ...`; the continuation lines were left as
    # Python (an unexpected indent), so the notebook was skipped as "Python 2 source"
    shell = "! gcloud compute tpus create `hostname` \\\n  --zone us-central1-b \\\n  --version 1.13"
    data = notebook(code("import tensorflow as tf"), code(shell),
                    code("if True:\n    !echo a \\\n      b\n    opt = tf.train.AdamOptimizer(0.1)"))
    result = migrate_notebook(data, "continued.ipynb")
    assert not result.skipped and not [f for f in result.findings if f.code in ("MIG001", "MIG002")]
    cells = json.loads(result.migrated)["cells"]
    assert "".join(cells[1]["source"]) == shell
    assert "".join(cells[2]["source"]) == \
        "if True:\n    !echo a \\\n      b\n    opt = tf.compat.v1.train.AdamOptimizer(0.1)"


def test_the_audit_reads_a_continued_shell_line_as_one_line():
    from bench.corpus_audit import notebook_module

    module = notebook_module(notebook(code("!gcloud a \\\n  --b \\\n  --c\nx = 1")))
    assert module.split("\n")[:4] == ["pass", "pass", "pass", "x = 1"]
