"""Keras 2's `BatchNormalization(fused=...)` after estimator-migrate, both targets (oracle test).

Keras 3 has no `fused` argument: `tf.keras.layers.BatchNormalization(fused=False)` became
estimator_bridge.compat.keras_batch_norm.BatchNormalization(fused=False) and stopped at build time
("Unrecognized keyword arguments passed to BatchNormalization: {'fused': False}"), with no finding.
The compat layer now takes `fused` and decides at run time: False is TF 1.15's non-fused moments path
(moving variance from the biased batch variance, Keras 3's own layer), True / None the fused kernel
where Keras 2 used it. tests/migrate/programs/keras_batch_norm_fused.py (one layer of each) measured
against TF 1.15 (TF 2.21 + Keras 3.15, CPU): moving variances within 1.2e-7 relative, evaluate 8e-8,
predictions 3.3e-7. Running the fused=False layer on the fused kernel's statistics instead gives
moving variance 0.2587 where TF 1.15 has 0.2465 and evaluate 0.36444 vs 0.36292: the non-fused path
is the faithful one. `--keras 2` keeps `fused=` (tf-keras takes it): within 1e-7 of TF 1.15 too.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_batch_norm_fused.py"
BATCH = np.random.RandomState(0).uniform(-1, 1, size=(4, 2, 2, 3)).astype(np.float32)


def _moving_variance_after_one_step(**kwargs):
    from estimator_bridge.compat.keras_batch_norm import BatchNormalization

    layer = BatchNormalization(momentum=0.0, **kwargs)
    layer(BATCH, training=True)
    return np.asarray(layer.moving_variance)


def test_fused_false_keeps_the_biased_batch_variance_and_fused_true_the_kernels():
    biased = BATCH.reshape(-1, 3).var(axis=0)
    np.testing.assert_allclose(_moving_variance_after_one_step(fused=False), biased, rtol=1e-5)
    for fused in (True, None):
        np.testing.assert_allclose(_moving_variance_after_one_step(fused=fused), biased * 16 / 15, rtol=1e-5)


def test_fused_survives_the_layer_config():
    from estimator_bridge.compat.keras_batch_norm import BatchNormalization

    layer = BatchNormalization(fused=False, momentum=0.9)
    again = BatchNormalization.from_config(layer.get_config())
    assert again.fused is False and again.momentum == 0.9
    assert "fused" not in BatchNormalization().get_config()


def test_fused_is_passed_to_the_compat_layer_literal_or_not():
    before = ("import tensorflow as tf\n"
              "a = tf.keras.layers.BatchNormalization(fused=False)\n"
              "b = tf.keras.layers.BatchNormalization(momentum=0.9, fused=flag)\n")
    after = ("import tensorflow as tf\nimport estimator_bridge.compat.keras_batch_norm\n\n"
             "a = estimator_bridge.compat.keras_batch_norm.BatchNormalization(fused=False)\n"
             "b = estimator_bridge.compat.keras_batch_norm.BatchNormalization(momentum=0.9, fused=flag)\n")
    assert migrate_text(before, "f.py") == (after, [])


def _migrated_numbers(tmp_path, target, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    monkeypatch.delenv(ENVIRONMENT)
    assert findings == []
    assert "fused=False" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    return run_current_json(path)


@pytest.mark.oracle
@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_fused_arguments_reproduce_tf_1_15(tmp_path, monkeypatch, target):
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    ours = _migrated_numbers(tmp_path, target, monkeypatch)
    for key in ("loss", "evaluate", "predictions"):
        np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-6, err_msg=key)
    for ours_variance, oracle_variance in zip(ours["moving_variance"], oracle["moving_variance"], strict=True):
        np.testing.assert_allclose(ours_variance, oracle_variance, rtol=1e-6, err_msg="moving_variance")
