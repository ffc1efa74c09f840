"""What verify decides before running anything: the oracle, the arguments, the usage errors."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from verify import oracles
from verify.cli import main
from verify.oracle_choice import NoTensorFlow, choose_oracle
from verify.program import BadProgram, Program, check_program


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(source)
    return path


@pytest.mark.parametrize("source,oracle", [
    ("import tensorflow as tf\nrun = tf.contrib.tpu.TPUEstimator\n", "tf115"),
    ("from tensorflow.contrib import tpu\n", "tf115"),
    ("import tensorflow as tf\nx = tf.estimator.Estimator\n", "tf115"),
    ("import tensorflow.compat.v1 as tf\nfrom tensorflow.compat.v1 import estimator as tf_estimator\n", "tf215"),
    ("import tensorflow as tf\nx = tf.compat.v1.estimator.tpu.TPUEstimator\n", "tf215"),
    ("import tensorflow as tf\nmodel = tf.contrib.tpu.keras_to_tpu_model(m)\n", "tf115"),
])
def test_the_oracle_follows_what_the_program_uses(tmp_path, source, oracle):
    assert choose_oracle(write(tmp_path, "train.py", source)).oracle == oracle


def test_tf_contrib_reached_through_a_sibling_module_pins_tf_1_15(tmp_path):
    write(tmp_path, "modeling.py", "import tensorflow.compat.v1 as tf\nnorm = tf.contrib.layers.layer_norm\n")
    script = write(tmp_path, "run.py", "import tensorflow.compat.v1 as tf\nimport modeling\n")
    choice = choose_oracle(script)
    assert choice.oracle == "tf115" and choice.reason.startswith("modeling.py:2 uses tf.contrib")


def test_a_colab_notebook_that_selects_tf2_gets_the_tf2_oracle(tmp_path):
    """training-data-analyst's keras_flowers_gputputpupod_tf2.1 (68ccb3f7a): `%tensorflow_version 2.x`
    under `if 'google.colab' in sys.modules:`, then plain `import tensorflow as tf`, read as TF 1.x
    code (TF 1.15) before; a notebook without the magic still is."""
    import nbformat

    def notebook(name, *cells):
        document = nbformat.v4.new_notebook()
        document.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
        return write(tmp_path, name, nbformat.writes(document))

    choice = choose_oracle(notebook("tf21.ipynb", "import sys\nif 'google.colab' in sys.modules:\n"
                                                  "  %tensorflow_version 2.x\nimport tensorflow as tf"))
    assert choice.oracle == "tf215" and choice.reason == "tf21.ipynb:3 selects TensorFlow 2 in Colab (%tensorflow_version 2.x)"
    assert choose_oracle(notebook("tf1.ipynb", "import tensorflow as tf")).oracle == "tf115"
    assert choose_oracle(notebook("contrib.ipynb", "%tensorflow_version 2.x",
                                  "import tensorflow as tf\nm = tf.contrib.tpu.keras_to_tpu_model(m)")).oracle == "tf115"


def test_a_program_reading_tensor_values_eagerly_gets_the_tf2_oracle(tmp_path):
    """training-data-analyst's TF 2.0 notebook 05K_MNIST_TF20Keras_Tensorboard_solution (909c685fd):
    plain `import tensorflow as tf`, then `v_images.numpy()`; TF 1.15 stops there (eager execution is
    off), so it was chosen wrongly and its test-bed entry needed --oracle tf215. TF 1.x code that
    turns eager execution on itself, in any file of the program, keeps TF 1.15; contrib still wins."""
    script = write(tmp_path, "tf2.py", "import tensorflow as tf\n\nx = tf.ones([2])\nprint(x.numpy())\n")
    choice = choose_oracle(script)
    assert choice.oracle == "tf215" and choice.reason.startswith("tf2.py:4 reads a tensor's value with .numpy()")
    write(tmp_path, "setup_eager.py", "import tensorflow as tf\ntf.enable_eager_execution()\n")
    eager_tf1 = write(tmp_path, "eager1.py", "import tensorflow as tf\nimport setup_eager\nprint(tf.ones([2]).numpy())\n")
    assert choose_oracle(eager_tf1).oracle == "tf115"
    contrib = write(tmp_path, "contrib.py", "import tensorflow as tf\nnorm = tf.contrib.layers.layer_norm\n"
                                           "print(tf.ones([2]).numpy())\n")
    assert choose_oracle(contrib).oracle == "tf115"
    with pytest.raises(NoTensorFlow):
        choose_oracle(write(tmp_path, "torchlike.py", "import torch\nprint(torch.ones(2).numpy())\n"))


def test_a_program_that_turns_tf2_behaviour_on_gets_the_tf2_oracle(tmp_path):
    """tensorflow/tpu's mnist_tf2_with_summary.py (a9fa982, 2019-10, "for TF 2.0 models"):
    `import tensorflow.compat.v2 as tf` and `tf.enable_v2_behavior()` in its `__main__`; its plain
    import read as TF 1.x code and TF 1.15 became its oracle. Any spelling of the call counts;
    tf.contrib still wins (only TF 1.15 has it), and a TF 1.x program that merely reaches one
    tf.compat.v2 name keeps TF 1.15."""
    script = write(tmp_path, "tf2.py", "import tensorflow.compat.v2 as tf\n\nif __name__ == '__main__':\n"
                                       "  tf.enable_v2_behavior()\n")
    choice = choose_oracle(script)
    assert choice.oracle == "tf215" and choice.reason.startswith("tf2.py:4 turns TF 2.x behaviour on")
    v1 = write(tmp_path, "v1.py", "import tensorflow.compat.v1 as tf\nfrom tensorflow.compat.v1 import "
                                  "enable_v2_behavior\nenable_v2_behavior()\n")
    assert choose_oracle(v1).oracle == "tf215"
    contrib = write(tmp_path, "contrib.py", "import tensorflow as tf\ntf.enable_v2_behavior()\n"
                                           "norm = tf.contrib.layers.layer_norm\n")
    assert choose_oracle(contrib).oracle == "tf115"
    summary = write(tmp_path, "summary.py", "import tensorflow as tf\nscalar = tf.compat.v2.summary.scalar\n")
    assert choose_oracle(summary).oracle == "tf115"


def test_a_program_without_tensorflow_is_refused(tmp_path):
    with pytest.raises(NoTensorFlow, match="does not import TensorFlow"):
        choose_oracle(write(tmp_path, "plain.py", "import numpy\n"))


@pytest.mark.parametrize("args,steps,message", [
    (("--model_dir=/tmp/mine",), None, "must name its model_dir as {model_dir}"),
    (("--model_dir={model_dir}",), 10, "no {steps} placeholder"),
    (("--model_dir={model_dir}", "--train_steps={steps}"), None, "give its value with --steps"),
    (("--model_dir={model_dir}", "--data={data_dir}"), None, "unknown placeholder"),
])
def test_arguments_that_would_be_ignored_or_touch_the_users_model_dir_are_refused(tmp_path, args, steps, message):
    script = write(tmp_path, "train.py", "import tensorflow as tf\n")
    with pytest.raises(BadProgram, match=message.replace("{", r"\{").replace("}", r"\}")):
        check_program(Program(script, args, steps=steps))


def test_placeholders_are_filled_per_run(tmp_path):
    program = Program(tmp_path / "t.py", ("--output_dir={model_dir}", "--num_train_steps={steps}"), steps=7)
    assert program.argv(Path("/w/run1")) == ["--output_dir=/w/run1", "--num_train_steps=7"]


def test_usage_errors_exit_2_with_a_message(tmp_path, capsys):
    script = write(tmp_path, "train.py", "import tensorflow as tf\n")
    assert main([str(script), "--", "--model_dir=/tmp/mine"]) == 2
    assert "must name its model_dir as {model_dir}" in capsys.readouterr().err
    assert main([str(script), "--side", "runner", "--migrated", str(script), "--", "--model_dir={model_dir}"]) == 2
    assert "--migrated is used by the migrated side" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.py"), "--", "--model_dir={model_dir}"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_estimator_migrate_has_verify_as_a_subcommand(capsys):
    from migrate.cli import main as migrate_main

    assert migrate_main(["verify", "--help"]) == 0
    assert "--side" in capsys.readouterr().out


def test_a_missing_cpython_3_7_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "no-pyenv"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("ESTIMATOR_BRIDGE_PYTHON37", raising=False)
    with pytest.raises(oracles.OracleUnavailable) as raised:
        oracles.find_python("3.7")
    message = str(raised.value)
    assert "CPython 3.7 is needed" in message and "pyenv install 3.7" in message
    assert "ESTIMATOR_BRIDGE_PYTHON37" in message


def test_an_explicit_interpreter_is_used_when_it_is_the_right_version(monkeypatch, tmp_path):
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    monkeypatch.setenv(f"ESTIMATOR_BRIDGE_PYTHON{sys.version_info.major}{sys.version_info.minor}", sys.executable)
    assert oracles.find_python(version) == Path(sys.executable)


def test_oracles_are_found_in_the_checkout_then_the_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(oracles.ORACLES_ENV_VARIABLE, raising=False)
    roots = oracles.candidate_roots("tf115")
    assert roots[-1] == tmp_path / "cache" / "estimator-bridge" / "oracles" / "tf115"
    monkeypatch.setenv(oracles.ORACLES_ENV_VARIABLE, str(tmp_path / "mine"))
    assert oracles.candidate_roots("tf115")[0] == tmp_path / "mine" / "tf115"


def test_no_provision_names_the_command_that_builds_the_oracle(monkeypatch, tmp_path):
    monkeypatch.setenv(oracles.ORACLES_ENV_VARIABLE, str(tmp_path / "mine"))
    monkeypatch.setattr(oracles, "CHECKOUT_ORACLES", tmp_path / "none")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(oracles.OracleUnavailable, match="python -m verify.oracles ensure tf215"):
        oracles.ensure("tf215", provision=False)


def test_a_stale_recipe_fingerprint_is_not_a_built_oracle(tmp_path):
    recipe = oracles.RECIPES["tf115"]
    root = tmp_path / "tf115"
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "python").write_text("")
    (root / ".done").write_text("0123456789abcdef\n")
    assert not oracles.is_built(recipe, root)
    (root / ".done").write_text(oracles.fingerprint(recipe) + "\n")
    assert oracles.is_built(recipe, root)
    assert os.path.exists(recipe.requirements)
