"""`estimator-migrate --keras 2`: Keras references become tf_keras (the tf-keras package, Keras 2 on current
TensorFlow) and the Keras 3 rewrites are not made; the migrated programs keep TF 1.15's numbers (oracle test).

The 2019-style program (TF1 optimizer in compile, fit_generator with a float steps_per_epoch, .h5 weights
at run-time paths) gets a 4-line diff (tf.keras -> tf_keras, tf.train -> tf.compat.v1.train); measured
(TF 2.21 + tf-keras 2.21.0 vs TF 1.15, CPU): history and evaluation within 2e-7 relative (evaluate equal
to the printed digit). The backend program (K.sqrt/K.mean/K.square loss, Tokenizer, LSTMCell's
get_initial_state(batch_size=, dtype=)) runs unchanged on tf_keras: losses within 1e-7.
"""

import os

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAMS = REPO_ROOT / "tests" / "migrate" / "programs"


@pytest.fixture
def keras2(monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, "2")


def test_keras_2_points_every_spelling_at_tf_keras_and_keeps_keras_2_apis(keras2):
    source = ("import os\nimport tensorflow as tf\nfrom tensorflow import keras\nfrom tensorflow.keras import backend as K\n"
              "import keras as standalone\nfrom keras.layers.convolutional import Conv2D\nimport tensorflow.keras as tk\n\n"
              "def f(model, gen, d):\n"
              "  model.fit_generator(gen, steps_per_epoch=3.0)\n"
              "  model.save_weights(os.path.join(d, 'x.h5'))\n"
              "  return K.mean(tf.keras.layers.Dense(3)(d)), keras.layers.BatchNormalization(), standalone.layers.Dense(2)\n")
    migrated, findings = migrate_text(source, "f.py", verify=True)
    assert "import tf_keras as keras\nfrom tf_keras import backend as K\nimport tf_keras as standalone\n" in migrated
    assert "from tf_keras.layers.convolutional import Conv2D\nimport tf_keras as tk\n" in migrated
    # native in Keras 2; through the helper for TF 1.x's val_loss and data that runs out
    assert "estimator_bridge.compat.keras_methods.fit_generator_tf1(model, gen, steps_per_epoch=3.0)" in migrated
    assert "model.save_weights(os.path.join(d, 'x.h5'))" in migrated
    assert "K.mean(tf_keras.layers.Dense(3)(d)), keras.layers.BatchNormalization()" in migrated
    assert "estimator_bridge.compat.keras_batch_norm" not in migrated


def test_tf1_metric_names_are_kept_on_tf_keras_too(keras2):
    """TF 1.x logged metrics=['accuracy'] as 'acc'; tf_keras (eager) logs the string as given, so the
    TF1 spelling is written as on Keras 3 (test bed: training-data-analyst 01_MNIST_TPU_Keras.ipynb read
    history['acc']: KeyError under --keras 2 without it)."""
    source = ("import tensorflow as tf\nm = tf.keras.Sequential()\n"
              "m.compile('sgd', 'categorical_crossentropy', metrics=['accuracy'])\n")
    migrated, _ = migrate_text(source, "f.py", verify=True)
    assert "m = tf_keras.Sequential()" in migrated and "metrics=['acc']" in migrated


def test_keras_3_stays_the_default():
    migrated, _ = migrate_text("import tensorflow as tf\nm = tf.keras.layers.Dense(3)\n", "f.py")
    assert "tf_keras" not in migrated and os.environ.get(ENVIRONMENT) in (None, "3")


@pytest.mark.oracle
def test_the_2019_program_on_tf_keras_reproduces_tf_1_15(keras2, tmp_path):
    program = PROGRAMS / "keras_2019_weights_paths.py"
    migrated, _ = migrate_text(program.read_text(), str(program))
    assert "tf_keras.models.Sequential" in migrated and "fit_generator" in migrated
    path = tmp_path / program.name
    path.write_text(migrated)
    (tmp_path / "oracle").mkdir()
    (tmp_path / "ours").mkdir()
    oracle = run_json(oracle_python("tf115"), program, str(tmp_path / "oracle"))
    ours = run_current_json(path, str(tmp_path / "ours"))
    for key in ("loss", "again", "evaluate"):
        np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-6, err_msg=key)
    assert sorted(p.name for p in (tmp_path / "ours").iterdir()) == ["final_3.h5", "start.h5"]


@pytest.mark.oracle
def test_the_backend_program_on_tf_keras_reproduces_tf_1_15(keras2, tmp_path):
    program = PROGRAMS / "keras2_backend_and_utils.py"
    migrated, _ = migrate_text(program.read_text(), str(program))
    assert "from tf_keras import backend as K" in migrated
    path = tmp_path / program.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf115"), program)
    ours = run_current_json(path)
    np.testing.assert_allclose(ours["loss"], oracle["loss"], rtol=1e-6)
    for mine, theirs in zip(ours["values"], oracle["values"]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-6)
    for key in ("int_shape", "summary", "sequences"):
        assert ours[key] == oracle[key], key


def test_the_cli_says_which_target_it_used(tmp_path, monkeypatch, capsys):
    import json

    from migrate.cli import main

    monkeypatch.setenv(ENVIRONMENT, "3")   # main sets it for its workers; monkeypatch restores it
    monkeypatch.setenv("ESTIMATOR_MIGRATE_CACHE", "off")
    source = tmp_path / "train.py"
    source.write_text("import tensorflow as tf\nmodel = tf.keras.Sequential()\n")
    main(["--keras", "2", "--format", "json", str(source)])
    report = json.loads(capsys.readouterr().out)
    assert report["keras_target"] == 2 and "--keras 3` suits" in report["keras_target_why"]
    assert report["files"][0]["changed"]
    monkeypatch.delenv(ENVIRONMENT)        # no --keras, no environment: the default
    main(["--diff", str(source)])
    captured = capsys.readouterr()   # the diff on stdout, the report on stderr
    out = captured.out + captured.err
    assert "tf_keras" not in out and "Keras target: Keras 3 (`--keras 3`, the default)" in out


# ---- keras_to_tpu_model under --keras 2 ------------------------------------------------------------
# The rewrite wrote Keras 3's clone (`tf.keras.models.clone_model`, which a second run then turned into
# tf_keras': not idempotent) and `if model.compiled: compile_from_config(...)`: tf-keras models have no
# `compiled` (AttributeError) and their compile config cannot serialise a TF1 optimizer (TypeError).
# The input is the Keras 3 fixture's; only the expected output is the target's own.
KERAS2_FIXTURES = REPO_ROOT / "tests" / "migrate" / "fixtures_keras2"
KERAS_TPU_BEFORE = REPO_ROOT / "tests" / "migrate" / "fixtures" / "keras" / "keras_tpu.before.py"


@pytest.mark.parametrize("target", ["2", "3"])
def test_keras_to_tpu_model_migrates_to_its_pair_and_again_to_itself(monkeypatch, target):
    monkeypatch.setenv(ENVIRONMENT, target)
    before = KERAS_TPU_BEFORE
    first, _ = migrate_text(before.read_text(), str(before), verify=True)
    if target == "2":
        assert first == (KERAS2_FIXTURES / "keras_tpu.after.py").read_text()
        assert "tf.keras" not in first and ".compiled" not in first
    second, _ = migrate_text(first, str(before))
    assert second == first


TO_TPU = '''import tensorflow as tf


def to_tpu(model, resolver):
  return tf.contrib.tpu.keras_to_tpu_model(model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
'''


# Run in a subprocess: the emulated TPU system of a tf-keras model stays in the process and cancels the
# next Keras 3 one's steps (CancelledError in tests/migrate/test_keras_tpu_semantics.py after it).
TRAIN_BOTH = """import json, sys
import numpy as np
import tensorflow as tf
import tf_keras
from estimator_bridge import tpu_emulation
import program

x = np.random.RandomState(0).randn(64, 4).astype("float32")
y = (x[:, 0] > 0).astype("int32")


def compiled():
    tf_keras.utils.set_random_seed(0)
    model = tf_keras.Sequential([tf_keras.Input((4,)), tf_keras.layers.Dense(8, activation="relu"),
                                 tf_keras.layers.Dense(2)])
    model.compile(tf.compat.v1.train.AdamOptimizer(0.01) if sys.argv[1] == "tf1" else tf_keras.optimizers.Adam(0.01),
                  tf_keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["acc"])
    return model


with tpu_emulation.installed(8):   # first: it makes the 8 logical CPUs before any op runs
    expected = compiled().fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history
    converted = program.to_tpu(compiled(), tf.distribute.cluster_resolver.TPUClusterResolver("t"))
    replicas = converted.distribute_strategy.num_replicas_in_sync
    history = converted.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0).history
print(json.dumps({"replicas": replicas, "expected": {k: [float(v) for v in vs] for k, vs in expected.items()},
                  "converted": {k: [float(v) for v in vs] for k, vs in history.items()}}))
"""


@pytest.mark.parametrize("optimizer", ["tf1", "keras"])
def test_the_converted_tf_keras_model_is_compiled_like_the_original_and_trains_like_it(keras2, optimizer, tmp_path):
    migrated, findings = migrate_text(TO_TPU, "f.py")
    assert "tf_keras.models.clone_model" in migrated and findings == []
    (tmp_path / "program.py").write_text(migrated)
    (tmp_path / "train.py").write_text(TRAIN_BOTH)
    result = run_current_json(tmp_path / "train.py", optimizer, cwd=tmp_path, timeout=600)
    assert result["replicas"] == 8
    np.testing.assert_allclose(result["converted"]["loss"], result["expected"]["loss"], rtol=1e-5)
    np.testing.assert_allclose(result["converted"]["acc"], result["expected"]["acc"], rtol=0)
