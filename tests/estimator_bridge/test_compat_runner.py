"""`python -m estimator_bridge.run SCRIPT ARGS`: unchanged TF1-era scripts on current TensorFlow.

Real subprocesses throughout. The centre piece is `goldens/compat_tpu_script.py`, a TF 1.x-style
TPUEstimator program (tf.contrib.tpu, tf.layers with batch norm and UPDATE_OPS, tf.flags,
tf.app.run, tf.contrib.data, MomentumOptimizer): run through the runner it must print what TF 1.15
printed (`goldens/compat_tpu_script_tf115.json`, recorded from two identical TF 1.15 runs by
`python -m tests.estimator_bridge.goldens.record`, run again live by the oracle test).

Numbers go through the suite's one comparison (tests/support/numbers.py: relative to
max(|value|, 1e-3, the RMS of the variable)), held to RTOL below. `dense/bias` is zero in exact
arithmetic (batch normalization follows the layer and removes any constant shift, so its
gradient vanishes): its stored values (~2e-9) are float32 rounding noise, held by the 1e-3
noise. Measured, its runner value differs from TF 1.15's by 5.9e-9 (more than the values
themselves), as two noises do. Its floor is therefore the scale of what the noise is rounding
of: the gradients the same backpropagated terms give the kernel (RMS of dense/kernel/Momentum,
0.14). Held there, a bias that really moved (1e-5) fails; the values' noise size is asserted on
the golden itself.
"""

import json
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from estimator_bridge import run
from tests.support.goldens import recorded_here, without_machine
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python, run_json

GOLDENS = REPO_ROOT / "tests" / "estimator_bridge" / "goldens"
TPU_SCRIPT = GOLDENS / "compat_tpu_script.py"
with open(GOLDENS / "compat_tpu_script_tf115.json") as golden_stream:
    GOLDEN = json.load(golden_stream)
# Measured (runner vs TF 1.15, 6 Momentum steps, TF 2.21, 2026-11-23), max relative: variables
# 4.2e-7 (dense/kernel/Momentum), dense/bias 4.1e-8 and its Momentum 1.6e-7 at their floor,
# eval loss 0; the same on TF 2.15 (compat.v1 spelling). Float32 rounding order.
RTOL = 1e-6
# Variables that are zero in exact arithmetic -> the variable whose RMS is their floor (above).
NOISE_FLOOR_OF = {"dense/bias": "dense/kernel/Momentum", "dense/bias/Momentum": "dense/kernel/Momentum"}


def floor_of(name):
    scale_of = NOISE_FLOOR_OF.get(name)
    return float(np.sqrt(np.mean(np.square(GOLDEN["variables"][scale_of])))) if scale_of else 1e-3


def runner_env():
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    return env


def run_through_runner(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "estimator_bridge.run", *map(str, args)],
                          capture_output=True, text=True, timeout=600, env=runner_env(),
                          cwd=cwd or REPO_ROOT)


def last_json_line(stdout):
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    assert lines, f"no JSON line in stdout:\n{stdout[-2000:]}"
    return json.loads(lines[-1])


def assert_matches_golden(result):
    assert result["global_step"] == GOLDEN["global_step"]
    assert result["eval_accuracy"] == GOLDEN["eval_accuracy"]
    assert_close(result["eval_loss"], GOLDEN["eval_loss"], rtol=RTOL, what="eval loss")
    assert sorted(result["variables"]) == sorted(GOLDEN["variables"])
    for name, golden_value in GOLDEN["variables"].items():
        assert_close(result["variables"][name], golden_value, rtol=RTOL, floor=floor_of(name),
                     what=name)


def script(tmp_path, source, name="legacy.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


# ----------------------------------------------------------------------------- the TF1 program


@pytest.mark.parametrize("spelling", [
    "contrib", pytest.param("compat_v1", marks=pytest.mark.slow)])
def test_unchanged_tpu_estimator_script_matches_tf_1_15(tmp_path, spelling):
    completed = run_through_runner(TPU_SCRIPT, f"--model_dir={tmp_path / 'model'}",
                                   f"--spelling={spelling}")
    assert completed.returncode == 0, completed.stderr[-4000:]
    assert_matches_golden(last_json_line(completed.stdout))


def test_golden_records_a_trained_model():
    assert GOLDEN["tensorflow"] == "1.15.0"
    assert GOLDEN["global_step"] == 6
    assert "batch_normalization/moving_mean" in GOLDEN["variables"]
    assert np.any(np.asarray(GOLDEN["variables"]["batch_normalization/moving_mean"]) != 0)
    assert "dense/kernel/Momentum" in GOLDEN["variables"]
    for name in NOISE_FLOOR_OF:  # zero in exact arithmetic: rounding noise, far below its floor
        assert np.max(np.abs(GOLDEN["variables"][name])) < 1e-6 * floor_of(name), name


@pytest.mark.oracle
def test_golden_is_what_tf_1_15_prints_now(tmp_path):
    live = run_json(oracle_python("tf115"), TPU_SCRIPT, f"--model_dir={tmp_path / 'model'}")
    assert live["tensorflow"] == "1.15.0"  # the oracle's own tf.__version__
    if not recorded_here(GOLDEN):  # another CPU: TF 1.15's own last bits move (support/goldens.py)
        assert_matches_golden(live)
        return
    assert live == without_machine(GOLDEN), (
        "oracle A no longer prints goldens/compat_tpu_script_tf115.json; if the script changed "
        "on purpose, re-record it: python -m tests.estimator_bridge.goldens.record "
        "compat_tpu_script")


@pytest.mark.oracle
def test_tf_2_15_compat_v1_spelling_agrees_with_the_golden(tmp_path):
    live = run_json(oracle_python("tf215"), TPU_SCRIPT, f"--model_dir={tmp_path / 'model'}",
                    "--spelling=compat_v1")
    assert live["tensorflow"] == "2.15.1"
    assert_matches_golden(live)


# ----------------------------------------------------------------------------- process contract


def test_argv_main_name_and_exit_code_are_the_scripts(tmp_path):
    path = script(tmp_path, """
        import sys
        import tensorflow as tf

        tf.flags.DEFINE_integer("code", 0, "exit code")
        FLAGS = tf.flags.FLAGS

        def main(argv):
            print("argv", argv, "name", __name__, "code", FLAGS.code)
            return FLAGS.code

        if __name__ == "__main__":
            tf.app.run()
        """)
    completed = run_through_runner(path, "--code=3", "positional")
    assert completed.returncode == 3, completed.stderr[-3000:]
    assert f"argv ['{path}', 'positional'] name __main__ code 3" in completed.stdout


def test_an_uncaught_exception_exits_1_with_the_traceback(tmp_path):
    path = script(tmp_path, """
        import tensorflow as tf
        raise RuntimeError("the legacy script failed")
        """)
    completed = run_through_runner(path)
    assert completed.returncode == 1
    assert "RuntimeError: the legacy script failed" in completed.stderr


def test_sys_exit_with_a_message_exits_1_and_prints_it(tmp_path, capsys):
    # In process (the script imports nothing): run.main() is what `python -m` calls.
    path = script(tmp_path, """
        import sys
        sys.exit("bad flags")
        """)
    assert run.main([str(path)]) == 1
    assert "bad flags" in capsys.readouterr().err


def test_own_modules_see_tf1_real_tensorflow_stays_and_tf1_behaviours_apply(tmp_path):
    script(tmp_path, """
        import tensorflow as tf

        def make_layer(inputs):
            return tf.layers.dense(inputs, 2, name="helper")
        """, name="helper_module.py")
    path = script(tmp_path, """
        import sys
        import tensorflow as tf
        import helper_module

        with tf.Graph().as_default():
            output = helper_module.make_layer(tf.zeros([1, 3]))
            print("variables", [v.name for v in tf.global_variables()])
        print("script sees contrib", hasattr(tf, "contrib"))
        print("sys.modules is real", not hasattr(sys.modules["tensorflow"], "contrib"))
        # TF 1.15 behaviours: Dimension objects, hashable tensors; eager stays on for the bridge.
        tf.disable_v2_behavior()
        print("dimension value", tf.zeros([2, 5]).shape[-1].value)
        print("eager kept", tf.executing_eagerly())
        """)
    completed = run_through_runner(path, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "variables ['helper/kernel:0', 'helper/bias:0']" in completed.stdout
    assert "script sees contrib True" in completed.stdout
    assert "sys.modules is real True" in completed.stdout
    assert "dimension value 5" in completed.stdout
    assert "eager kept True" in completed.stdout
    assert "disable_v2_behavior() applied v1 TensorShape" in completed.stderr


SESSION_SCRIPT = """
    import numpy as np
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.layers.dense(x, 1, kernel_initializer=tf.ones_initializer())
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        print("sum", session.run(y, {x: np.array([[1.0, 2.0]], np.float32)}).tolist())
    """


def test_session_scripts_run_in_graph_mode(tmp_path):
    completed = run_through_runner("--graph-mode", script(tmp_path, SESSION_SCRIPT))
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "sum [[3.0]]" in completed.stdout


@pytest.mark.slow
def test_session_scripts_fail_clearly_without_graph_mode(tmp_path):
    completed = run_through_runner(script(tmp_path, SESSION_SCRIPT))
    assert completed.returncode == 1
    assert "not compatible with eager execution" in completed.stderr


def test_dash_m_runs_a_module_as_main(tmp_path):
    package = tmp_path / "legacy_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    script(package, """
        import sys
        import tensorflow as tf
        if __name__ == "__main__":
            print("module main", sys.argv[1:], tf.contrib.tpu.TPUEstimator.__name__)
            sys.exit(4)
        """, name="trainer.py")
    completed = run_through_runner("-m", "legacy_pkg.trainer", "--flag", cwd=tmp_path)
    assert completed.returncode == 4, completed.stderr[-3000:]
    assert "module main ['--flag'] TPUEstimator" in completed.stdout


@pytest.mark.parametrize("arguments, message", [
    ([], "SCRIPT is required"),
    (["-m"], "-m needs a MODULE"),
    (["--bogus", "x.py"], "unknown option '--bogus'"),
    (["does_not_exist.py"], "script 'does_not_exist.py' does not exist"),
])
def test_usage_errors_exit_2(arguments, message, capsys):
    assert run.main(arguments) == 2
    assert message in capsys.readouterr().err


def test_keras_summary_runs_under_the_runners_v1_shapes_and_leaves_them_on(tmp_path):
    """training-data-analyst's 01_MNIST_TPU_Keras of 2018 calls model.summary() after compile;
    under the runner Keras 3's summary_utils divided a v1 `Dimension` by 8 and raised TypeError
    ("please use // instead"). Keras 2 (tf-keras), the runner's Keras now, was written for v1 shapes;
    the program's own shapes stay v1 after the summary."""
    path = script(tmp_path, """
        import tensorflow as tf

        l = tf.keras.layers
        model = tf.keras.Sequential([l.Reshape(input_shape=(28 * 28,), target_shape=(28, 28, 1)),
                                     l.Conv2D(4, 3), l.Flatten(), l.Dense(3)])
        model.summary()
        print("dimension value", tf.zeros([2, 5]).shape[-1].value)
        """)
    completed = run_through_runner(path, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr[-3000:]
    # TF 1.15's summary counts the same ("8,155"; tf-keras 2.21 prints "8155 (31.86 KB)")
    assert re.search(r"Total params: 8,?155", completed.stdout), completed.stdout[-2000:]
    assert "dimension value 5" in completed.stdout


@pytest.mark.parametrize("era_line, keys, names", [
    ("", ["acc", "loss", "val_acc", "val_loss"], ["loss", "acc"]),
    ("tf.constant(0).numpy()  # eager values: a TF 2.x program",
     ["accuracy", "loss", "val_accuracy", "val_loss"], ["loss", "accuracy"]),
], ids=["tf1_program", "tf2_program"])
def test_history_keys_and_metrics_names_are_those_of_the_programs_era(tmp_path, era_line, keys, names):
    """TF 1.x's Keras named metrics=['accuracy'] 'acc', TF 2.x's 'accuracy'. The runner once named
    it 'acc' for every program, and training-data-analyst's keras_flowers_gputputpupod_tf2.1 notebook
    (a TF 2.1 TPUStrategy program) stopped at history.history['val_accuracy'] with KeyError. Keras 2
    (tf-keras) in the program's era's mode names them as that era did."""
    path = script(tmp_path, f"""
        import json
        import numpy as np
        import tensorflow as tf
        {era_line}
        x = np.random.RandomState(0).rand(32, 4).astype("float32")
        y = (x[:, 0] > 0.5).astype("int32")
        model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,))])
        model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
        history = model.fit(x, y, epochs=2, batch_size=8, validation_data=(x, y), verbose=0)
        print(json.dumps({{"keys": sorted(history.history), "names": model.metrics_names}}))
        """)
    completed = run_through_runner(path, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert last_json_line(completed.stdout) == {"keys": keys, "names": names}
