"""`tf.keras.estimator.model_to_estimator(...)` -> `estimator_bridge.model_to_estimator(...)` (before/after pairs).

The bridge's model_to_estimator (estimator_bridge/keras_estimator.py) takes TF 2.15's arguments and runs
a compiled Keras 3 or tf-keras model, so every spelling is rewritten on both Keras targets: before, the
call was left in place with a MIG305 finding naming the Keras calls to write by hand (and the Keras 2
target had rewritten it into tf-keras 2.21's stub that raises NotImplementedError: GoogleCloudPlatform/
training-data-analyst 08_image_keras mnistmodel, 0fff019). Oracle test of the migrated program's numbers:
tests/estimator_bridge/test_model_to_estimator.py.
"""

import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT

PAIRS = [
    ("import tensorflow as tf\nest = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir='m')\n",
     "import tensorflow as tf\nimport estimator_bridge\n\n"
     "est = estimator_bridge.model_to_estimator(keras_model=model, model_dir='m')\n"),
    ("import tensorflow as tf\nest = tf.compat.v1.keras.estimator.model_to_estimator(keras_model=model)\n",
     "import tensorflow as tf\nimport estimator_bridge\n\nest = estimator_bridge.model_to_estimator(keras_model=model)\n"),
    ("from tensorflow.keras.estimator import model_to_estimator\nest = model_to_estimator(model)\n",
     "from estimator_bridge import model_to_estimator\nest = model_to_estimator(model)\n"),
    ("from tensorflow import keras\nest = keras.estimator.model_to_estimator(model, config=c)\n",
     "from tensorflow import keras\nimport estimator_bridge\n\nest = estimator_bridge.model_to_estimator(model, config=c)\n"),
]


@pytest.mark.parametrize("before, after", PAIRS, ids=["tf.keras", "compat.v1", "from-import", "keras-alias"])
def test_every_spelling_becomes_the_bridges(before, after):
    migrated, findings = migrate_text(before, "trainer.py", verify=True)
    assert migrated == after
    assert not [f for f in findings if "model_to_estimator" in f.message]


BEFORE_KERAS2 = ("import tensorflow as tf\n"
                 "model = tf.keras.models.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))])\n"
                 "estimator = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir='m')\n")
AFTER_KERAS2 = ("import tensorflow as tf\nimport estimator_bridge\nimport tf_keras\n\n"
                "model = tf_keras.models.Sequential([tf_keras.layers.Dense(3, input_shape=(4,))])\n"
                "estimator = estimator_bridge.model_to_estimator(keras_model=model, model_dir='m')\n")


def test_the_keras_2_target_gives_the_tf_keras_model_to_the_bridge_not_to_tf_kerass_stub(monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, "2")
    migrated, findings = migrate_text(BEFORE_KERAS2, "model.py", verify=True)
    assert migrated == AFTER_KERAS2
    assert "tf_keras.estimator" not in migrated
    assert not [f for f in findings if "model_to_estimator" in f.message]
