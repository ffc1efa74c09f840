"""verify/notebook_script.py: a notebook's code cells as one program, papermill-style parameters."""

import json
import subprocess
import sys

import nbformat
import pytest

from verify.sides import NOTEBOOK_SCRIPT


def _notebook(tmp_path, *cells, tag=1):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
    if tag is not None:
        notebook.cells[tag].metadata["tags"] = ["parameters"]
    path = tmp_path / "program.ipynb"
    path.write_text(nbformat.writes(notebook))
    return path


def _run(path, *arguments):
    return subprocess.run([sys.executable, str(NOTEBOOK_SCRIPT), str(path), *arguments],
                          capture_output=True, text=True, timeout=60)


def test_parameters_follow_the_tagged_cell_and_ipython_lines_are_skipped(tmp_path):
    path = _notebook(tmp_path, "!pip install nothing\nimport json\n%matplotlib inline",
                     "MODEL_DIR = '/kaggle/working'\nEPOCHS = 3\nRATE = 0.1",
                     "%%bash\necho not python",
                     "print(json.dumps([MODEL_DIR, EPOCHS, RATE, __name__]))")
    completed = _run(path, f"--model_dir={tmp_path}", "--epochs=5")
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == [str(tmp_path), 5, 0.1, "__main__"]


def test_arguments_without_a_parameters_cell_are_an_error_naming_them(tmp_path):
    completed = _run(_notebook(tmp_path, "x = 1", "y = 2", tag=None), "--epochs=5")
    assert completed.returncode != 0
    assert "no cell tagged 'parameters' to take ['--epochs=5']" in completed.stderr


@pytest.mark.parametrize("bad", ["epochs=5", "--epochs"])
def test_arguments_must_be_name_value_pairs(tmp_path, bad):
    completed = _run(_notebook(tmp_path, "x = 1", "EPOCHS = 1"), bad)
    assert completed.returncode != 0 and "notebook parameters are --name=value" in completed.stderr
