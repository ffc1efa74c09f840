"""`--keras 2` leaves `tf.keras.estimator.model_to_estimator` to its finding (before/after pair).

tf-keras 2.21.0 keeps `tf_keras.estimator.model_to_estimator` only as a stub that raises NotImplementedError
(it needs tensorflow_estimator, removed with tf.estimator in TF 2.16). The Keras 2 target rewrote
`tf.keras.estimator.model_to_estimator(...)` into that stub with 0 findings:
GoogleCloudPlatform/training-data-analyst courses/machine_learning/deepdive/08_image_keras/mnistmodel/trainer/model.py
(0fff019, 2019) then stopped at run time. It is now reported as on the Keras 3 target (MIG305 with the
Keras calls that replace it) and left as written.
"""

import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT

BEFORE = ("import tensorflow as tf\n"
          "model = tf.keras.models.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))])\n"
          "estimator = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir='m')\n")
AFTER = ("import tensorflow as tf\nimport tf_keras\n\n"
         "model = tf_keras.models.Sequential([tf_keras.layers.Dense(3, input_shape=(4,))])\n"
         "estimator = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir='m')\n")


@pytest.mark.parametrize("target", ["2", "3"])
def test_model_to_estimator_is_reported_with_its_replacement_on_both_targets(target, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, findings = migrate_text(BEFORE, "model.py", verify=True)
    assert "tf_keras.estimator" not in migrated
    assert "tf.keras.estimator.model_to_estimator(keras_model=model, model_dir='m')" in migrated
    reported = [f for f in findings if "model_to_estimator" in f.message]
    assert [f.code for f in reported] == ["MIG305"]
    assert "model.fit(input_fn(), steps_per_epoch=N" in reported[0].hint


def test_the_keras_2_target_rewrites_the_rest_of_the_file(monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, "2")
    migrated, _ = migrate_text(BEFORE, "model.py", verify=True)
    assert migrated == AFTER
