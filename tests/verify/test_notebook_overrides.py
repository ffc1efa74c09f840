"""verify's notebook overrides (--set, --after, --skip-cell, --replace, --stub-module): a notebook made
tiny without editing it (verify/notebook_script.py), checked before any run (verify/program.py).

The overrides do what a hand-written driver script did for training-data-analyst's Keras notebooks:
real notebooks rarely tag a `parameters` cell.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from verify.cli import build_parser, notebook_overrides
from verify.program import BadProgram, NotebookOverrides, Program, check_program
from verify.sides import NOTEBOOK_SCRIPT


def _notebook(tmp_path, *cells):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
    path = tmp_path / "colab.ipynb"
    path.write_text(nbformat.writes(notebook))
    return path


def _run(tmp_path, path, overrides, *options):
    spec = tmp_path / "overrides.json"
    spec.write_text(json.dumps(overrides.as_json()))
    return subprocess.run([sys.executable, str(NOTEBOOK_SCRIPT), *options, "--overrides", str(spec), str(path)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)


COLAB = (
    "import json, os\nBATCH_SIZE = 128\ntraining_file = 'gs://mnist-public/train'",
    "if 'COLAB_TPU_ADDR' in os.environ:\n    EPOCHS = 10\nelse:\n    EPOCHS = 60\n"
    "steps_per_epoch = 60000 // BATCH_SIZE",
    "def augment(x):\n    return x + 1000\nlayers = [augment(1), 'Dropout(0.5)']",
    "print(json.dumps([BATCH_SIZE, training_file, EPOCHS, steps_per_epoch, layers]))",
    "!gcloud ml-engine models create mnist\nraise SystemExit('deployment cell ran')",
)


def test_set_after_replace_and_skip_make_a_colab_notebook_tiny(tmp_path):
    overrides = NotebookOverrides(
        after=(("BATCH_SIZE", "BATCH_SIZE = 16"), ("training_file", "training_file = '/data/train'"),
               ("EPOCHS", "EPOCHS = 3"), ("augment", "def augment(x):\n    return x")),
        skip_cells=("ml-engine",), replace=(("Dropout(0.5)", "Dropout(0.0)"),))
    completed = _run(tmp_path, _notebook(tmp_path, *COLAB), overrides)
    assert completed.returncode == 0, completed.stderr
    # EPOCHS inside a module-level if/else is set in the branch that ran; steps_per_epoch follows
    # BATCH_SIZE as the notebook computes it; the def replaced the augmentation.
    assert json.loads(completed.stdout) == [16, "/data/train", 3, 60000 // 16, [1, "Dropout(0.0)"]]


@pytest.mark.parametrize("overrides, message", [
    (NotebookOverrides(after=(("EPOCS", "EPOCS = 3"),)), "the notebook never binds EPOCS at module level"),
    (NotebookOverrides(skip_cells=("gcloud compute",)), "--skip-cell 'gcloud compute': no code cell contains it"),
    (NotebookOverrides(replace=(("Dropout(0.4)", "Dropout(0.0)"),)),
     "--replace 'Dropout(0.4)': no code cell that runs contains it"),
])
def test_an_override_that_matches_nothing_is_an_error_naming_it(tmp_path, overrides, message):
    """A typo in an override would otherwise run the notebook at full size, silently."""
    path = _notebook(tmp_path, *COLAB)
    completed = _run(tmp_path, path, overrides)
    assert completed.returncode != 0 and message in completed.stderr
    with pytest.raises(BadProgram, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_program(Program(script=path, args=(), notebook=overrides))


def test_a_name_bound_only_inside_a_function_is_not_a_module_level_binding(tmp_path):
    path = _notebook(tmp_path, "def make():\n    model = 1\n    return model\nm = make()")
    with pytest.raises(BadProgram, match="never binds model"):
        check_program(Program(script=path, args=(), notebook=NotebookOverrides(after=(("model", "pass"),))))


def test_stubbed_display_modules_accept_everything_and_shell_captures_are_empty(tmp_path):
    """training-data-analyst's notebooks import matplotlib and PIL for display only, read
    `plt.__file__` for a font folder, and capture shell output (`predictions = !gcloud ...`)."""
    path = _notebook(tmp_path,
                     "import json, os\nimport PIL.Image, PIL.ImageFont\nfrom matplotlib import pyplot as plt",
                     "plt.rc('image', cmap='gray_r')\nfont_dir = os.path.join(os.path.dirname(plt.__file__), 'fonts')\n"
                     "fig = plt.figure(figsize=(13, 13))\nfor axis in plt.subplots(2):\n    pass\n"
                     "lines = !gcloud ml-engine predict\nprint(json.dumps([font_dir, lines]))")
    completed = _run(tmp_path, path, NotebookOverrides(stub_modules=("matplotlib", "PIL")))
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == ["/verify-stub/matplotlib.pyplot/fonts", []]


def test_model_dir_is_the_notebooks_working_folder_and_a_placeholder_of_the_overrides(tmp_path):
    path = _notebook(tmp_path, "import os\nOUT = 'gs://bucket'", "print(os.getcwd() + '|' + OUT)\n"
                     "open('written.txt', 'w').write('1')")
    run_dir = tmp_path / "run"
    completed = _run(tmp_path, path, NotebookOverrides(after=(("OUT", "OUT = '{model_dir}/out'"),)),
                     "--model-dir", str(run_dir))
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"{run_dir}|{run_dir}/out"
    assert (run_dir / "written.txt").exists() and not (tmp_path / "written.txt").exists()


def test_the_command_line_options_become_overrides():
    args = build_parser().parse_args([
        "nb.ipynb", "--set", "EPOCHS=3", "--set", "PATH='/data/a=b'", "--after", "augment=def augment(x): return x",
        "--skip-cell", "gcloud", "--replace", "Dropout(0.5)", "Dropout(0.0)", "--stub-module", "matplotlib"])
    assert notebook_overrides(args) == NotebookOverrides(
        after=(("EPOCHS", "EPOCHS = 3"), ("PATH", "PATH = '/data/a=b'"), ("augment", "def augment(x): return x")),
        skip_cells=("gcloud",), replace=(("Dropout(0.5)", "Dropout(0.0)"),), stub_modules=("matplotlib",))
    with pytest.raises(ValueError, match="expected NAME=..."):
        notebook_overrides(build_parser().parse_args(["nb.ipynb", "--set", "3=EPOCHS"]))


def test_overrides_are_refused_for_a_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import tensorflow as tf\n")
    with pytest.raises(BadProgram, match="is a script: give it flags after --"):
        check_program(Program(script=script, args=("--model_dir={model_dir}",),
                              notebook=NotebookOverrides(after=(("EPOCHS", "EPOCHS = 3"),))))


def test_a_notebook_needs_no_model_dir_placeholder(tmp_path):
    check_program(Program(script=_notebook(tmp_path, "import tensorflow as tf"), args=()))


def test_a_stubbed_module_s_classes_can_be_subclassed(tmp_path):
    """Issue 29: `--stub-module sklearn` stopped `import tensorflow` on current TensorFlow: Keras 3
    subclasses scikit-learn's classes (`class TargetReshaper(TransformerMixin, BaseEstimator)`), and
    a stub could not be a base class (`TypeError: _Stub.__init__() takes from 1 to 2 positional
    arguments but 4 were given`)."""
    path = _notebook(tmp_path,
                     "import json\nimport sklearn.base\nfrom sklearn.base import BaseEstimator, ClassifierMixin",
                     "class Wrapper(ClassifierMixin, BaseEstimator):\n    def __init__(self, units=1):\n"
                     "        super().__init__()\n        self.units = units\n"
                     "class Again(sklearn.base.BaseEstimator):\n    pass\n"
                     "wrapper = Wrapper(units=3)\n"
                     "print(json.dumps([wrapper.units, isinstance(wrapper, sklearn.base.BaseEstimator),\n"
                     "                  issubclass(Again, BaseEstimator), Again.__mro__[1] is Wrapper.__mro__[2]]))")
    completed = _run(tmp_path, path, NotebookOverrides(stub_modules=("sklearn",)))
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == [3, False, False, True]


@pytest.mark.slow
def test_keras_3_imports_with_scikit_learn_stubbed(tmp_path):
    path = _notebook(tmp_path, "import tensorflow as tf\nprint(tf.keras.layers.Dense.__name__)")
    completed = _run(tmp_path, path, NotebookOverrides(stub_modules=("sklearn",)))
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert completed.stdout.strip().splitlines()[-1] == "Dense"


TPU_COLAB = (
    "import json\nimport tensorflow as tf",
    "resolver = tf.contrib.cluster_resolver.TPUClusterResolver('grpc://10.0.0.1:8470')\n"
    "tf.contrib.distribute.initialize_tpu_system(resolver)",
    "strategy = tf.contrib.distribute.TPUStrategy(resolver)",
    "WEIGHTS = '/tmp/sine.h5'\nprint(json.dumps([type(strategy).__name__, WEIGHTS]))",
)


@pytest.mark.slow
def test_overrides_are_applied_to_the_original_before_it_is_migrated(tmp_path):
    """Issue 29: `--replace 'tf.contrib.distribute.TPUStrategy(resolver)' 'tf.distribute.get_strategy()'`
    stopped the migrated side ("no code cell that runs contains it"): it was matched against the
    migrated copy, whose text the codemod had rewritten. An override is written against the user's
    program and means the same on every side: applied to the original, then migrated."""
    from verify.sides import launch, with_notebook_options

    source = tmp_path / "src"
    source.mkdir()
    path = _notebook(source, *TPU_COLAB)
    before = path.read_text()
    overrides = NotebookOverrides(
        after=(("WEIGHTS", "WEIGHTS = '{model_dir}/sine.h5'"),),
        skip_cells=("initialize_tpu_system",),
        replace=(("tf.contrib.distribute.TPUStrategy(resolver)", "tf.distribute.get_strategy()"),),
        stub_modules=("matplotlib",))
    program = Program(script=path, args=(), notebook=overrides)
    check_program(program)
    work = tmp_path / "work"
    work.mkdir()
    how = launch("migrated", program, work)
    migrated = nbformat.reads(Path(how.command[-1]).read_text(), as_version=4)
    code = "\n".join(cell.source for cell in migrated.cells)
    assert "tf.distribute.get_strategy()" in code and "initialize_tpu_system" not in code
    assert path.read_text() == before  # the user's notebook is only read
    spec = work / "notebook_overrides.json"  # what the pipeline gives every side
    spec.write_text(json.dumps(overrides.as_json()))
    model_dir = tmp_path / "run"
    command = with_notebook_options(how.command, model_dir, spec)
    completed = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path,
                               env={**os.environ, "PYTHONPATH": os.pathsep.join(map(str, how.python_path))})
    assert completed.returncode == 0, completed.stderr[-3000:]
    strategy, weights = json.loads(completed.stdout.strip().splitlines()[-1])
    assert weights == f"{model_dir}/sine.h5"
    assert strategy == type(__import__("tensorflow").distribute.get_strategy()).__name__


def test_a_work_folder_inside_the_notebook_s_folder_is_left_out_of_the_overridden_copy(tmp_path):
    # `verify nb.ipynb --work-dir runs` next to the notebook: the migrated side's overridden copy of
    # the notebook's folder copied the work folder into itself, recursively, until
    # "[Errno 36] File name too long" (found on tensorflow/tpu's iris Keras notebook).
    from verify.sides import overridden_tree

    path = _notebook(tmp_path, "x = 1")
    (tmp_path / "helper.py").write_text("y = 2\n")
    work_dir = tmp_path / "runs"
    (work_dir / "oracle").mkdir(parents=True)
    (work_dir / "oracle" / "events").write_text("")
    program = Program(script=path, args=(), notebook=NotebookOverrides(after=(("x", "x = 3"),)))
    staging = overridden_tree(program, work_dir)
    assert sorted(p.name for p in staging.iterdir()) == ["colab.ipynb", "helper.py"]
    assert "x = 3" in (staging / "colab.ipynb").read_text()
