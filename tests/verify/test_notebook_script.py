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


def test_a_shell_line_alone_in_a_block_keeps_the_program_valid(tmp_path):
    """training-data-analyst's 01_MNIST_TPU_Keras: `if ...:\\n  !pip install ...` alone in its
    block; dropping the line left an empty block (the whole notebook failed to compile)."""
    path = _notebook(tmp_path, "import json\nif True:\n  !pip install nothing\nvalue = 1",
                     "EPOCHS = 1", "print(json.dumps(value))")
    completed = _run(path)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == 1


def test_lower_case_parameters_are_set_by_their_own_name(tmp_path):
    """papermill's rule: the variable the parameters cell assigns, as spelled there; upper case
    (the Kaggle convention, `--epochs=3` sets EPOCHS) only when the cell assigns that spelling."""
    path = _notebook(tmp_path, "import json", "batch_size = 8\nEPOCHS = 1",
                     "print(json.dumps([batch_size, EPOCHS]))")
    completed = _run(path, "--batch_size=4", "--epochs=2")
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == [4, 2]


def test_a_parameter_the_cell_does_not_assign_is_an_error_listing_the_ones_it_does(tmp_path):
    completed = _run(_notebook(tmp_path, "x = 1", "EPOCHS = 1\nrate = 0.1"), "--steps=5")
    assert completed.returncode != 0
    assert "assigns no steps or STEPS; it assigns EPOCHS, rate" in completed.stderr


def test_tracebacks_and_inspect_read_the_program_not_the_notebook_json(tmp_path):
    """(TensorFlow's autograph reads a function's source with inspect: under the .ipynb path it
    read lines of the notebook's JSON; found on tensorflow/tpu's Keras colabs, keras_nb2.)"""
    path = _notebook(tmp_path, "import inspect",
                     "def step(x):\n    return x + 1\n",
                     "print(repr(inspect.getsource(step)))\nraise ValueError('from the last cell')", tag=None)
    completed = _run(path)
    assert completed.stdout.strip() == repr("def step(x):\n    return x + 1\n")
    assert "raise ValueError('from the last cell')" in completed.stderr
