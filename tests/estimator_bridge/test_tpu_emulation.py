"""The emulated TPU: TPU strategy code takes its TPU branch on 8 logical CPUs, and nothing leaks."""

import subprocess
import sys

import pytest

from estimator_bridge import tpu_emulation
from estimator_bridge.tpu_emulation import keras_compile_owner

KAGGLE_DETECTION = '''
import tensorflow as tf
try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    print("Running on TPU", tpu.master())
except ValueError:
    tpu = None
if tpu:
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.experimental.TPUStrategy(tpu)
else:
    strategy = tf.distribute.get_strategy()
print("REPLICAS", strategy.num_replicas_in_sync, isinstance(strategy, tf.distribute.TPUStrategy))
'''


def test_tpu_branch_runs_on_emulated_cores_and_the_real_entry_points_come_back():
    import tensorflow as tf

    real = tf.distribute.TPUStrategy
    with tpu_emulation.installed(8):
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="my-tpu")
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        strategy = tf.distribute.TPUStrategy(resolver)
        assert strategy.num_replicas_in_sync == 8
        assert isinstance(strategy, tf.distribute.TPUStrategy)
        assert resolver.master() == tpu_emulation.EMULATED_MASTER
        # the 2019 colabs print tpu.cluster_spec().as_dict()['worker'] (training-data-analyst's
        # 07_Keras_Flowers_TPU_squeezenet: KeyError on the emulated TPU before)
        assert resolver.cluster_spec().as_dict()["worker"] == ["emulated-tpu:8470"]
    assert tf.distribute.TPUStrategy is real


def test_command_line_runs_a_script_unchanged(tmp_path):
    script = tmp_path / "detect.py"
    script.write_text(KAGGLE_DETECTION)
    completed = subprocess.run([sys.executable, "-m", "estimator_bridge.tpu_emulation", "--cores", "8", str(script)],
                               capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "Running on TPU grpc://emulated-tpu:8470" in completed.stdout
    assert "REPLICAS 8 True" in completed.stdout


@pytest.mark.parametrize("argv, message", [([], "SCRIPT is required"), (["--cores", "x", "a.py"], "whole number"),
                                           (["missing.py"], "does not exist")])
def test_usage_errors_say_what_is_wrong(argv, message, capsys):
    assert tpu_emulation.main(argv) == 2
    assert message in capsys.readouterr().err


def test_zero_cores_is_refused():
    with pytest.raises(ValueError, match="at least one core"):
        tpu_emulation.install(0)


def test_keras_runs_one_step_per_execution_on_the_emulated_cores_and_gets_its_compile_back():
    """Keras 3 cannot run steps_per_execution > 1 under a MirroredStrategy of several replicas
    (keras-team/keras#19246); the emulation runs the same steps one per execution."""
    import keras
    import tensorflow as tf

    from estimator_bridge import tpu_emulation

    original = keras_compile_owner().compile
    with tpu_emulation.installed(8):
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", steps_per_execution=4)
        assert model.steps_per_execution == 1
    assert keras_compile_owner().compile is original
    plain = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    plain.compile(optimizer="sgd", loss="mse", steps_per_execution=4)
    assert plain.steps_per_execution == 4
