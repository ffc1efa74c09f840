"""Qualified-name matching: every spelling of a TF name hits the same table entry, nothing else does."""

import pytest

from migrate.engine import migrate_text


def migrated(source: str) -> str:
    return migrate_text(source)[0]


@pytest.mark.parametrize("source", [
    "import tensorflow as tf\nest = tf.contrib.tpu.TPUEstimator(model_fn=f)\n",
    "import tensorflow.compat.v1 as tf\nest = tf.contrib.tpu.TPUEstimator(model_fn=f)\n",
    "import tensorflow as tf\nest = tf.estimator.tpu.TPUEstimator(model_fn=f)\n",
    "import tensorflow as tf\nest = tf.compat.v1.estimator.tpu.TPUEstimator(model_fn=f)\n",
    "from tensorflow.contrib import tpu as contrib_tpu\nest = contrib_tpu.TPUEstimator(model_fn=f)\n",
    "from tensorflow.compat.v1 import estimator as tf_estimator\nest = tf_estimator.tpu.TPUEstimator(model_fn=f)\n",
    "from tensorflow.python.tpu import tpu_estimator\nest = tpu_estimator.TPUEstimator(model_fn=f)\n",
    "from tensorflow_estimator.python.estimator.tpu import tpu_estimator\nest = tpu_estimator.TPUEstimator(model_fn=f)\n",
    "import tensorflow.contrib.tpu as tpu\nest = tpu.TPUEstimator(model_fn=f)\n",
])
def test_every_alias_of_tpu_estimator_becomes_the_bridge(source):
    assert migrated(source) == "import estimator_bridge\n\nest = estimator_bridge.TPUEstimator(model_fn=f)\n" or \
        migrated(source).endswith("est = estimator_bridge.TPUEstimator(model_fn=f)\n")
    assert "contrib" not in migrated(source) and "tpu_estimator" not in migrated(source)


def test_from_import_of_the_class_rewrites_the_import_and_keeps_the_uses():
    source = "from tensorflow.contrib.tpu import TPUEstimator, TPUConfig as TC\nest = TPUEstimator(config=TC())\n"
    assert migrated(source) == "from estimator_bridge import TPUEstimator, TPUConfig as TC\nest = TPUEstimator(config=TC())\n"


def test_a_user_module_named_tpu_estimator_is_not_tensorflows():
    for source in ("import tpu_estimator\nest = tpu_estimator.TPUEstimator(model_fn=f)\n",
                   "from . import tpu_estimator\nest = tpu_estimator.TPUEstimator(model_fn=f)\n",
                   "from models import tpu_estimator\nest = tpu_estimator.TPUEstimator(model_fn=f)\n"):
        assert migrated(source) == source


def test_a_local_variable_named_tf_is_not_tensorflow():
    source = "import tensorflow as tf\n\ndef f(tf):\n    return tf.layers.dense(1)\n"
    assert migrated(source) == source


def test_tf1_names_move_to_compat_v1_but_compat_v1_code_is_left_alone():
    assert migrated("import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n") == \
        "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer(0.1)\n"
    for source in ("import tensorflow.compat.v1 as tf\nopt = tf.train.AdamOptimizer(0.1)\n",
                   "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer(0.1)\n",
                   "from tensorflow.compat import v1 as tf\nopt = tf.train.AdamOptimizer(0.1)\n"):
        assert migrated(source) == source


def test_compat_v1_alias_still_gets_bridge_layers():
    assert migrated("import tensorflow.compat.v1 as tf\ny = tf.layers.dense(x, 3)\n") == \
        "import tensorflow.compat.v1 as tf\nimport estimator_bridge\n\ny = estimator_bridge.layers.dense(x, 3)\n"


def test_calls_that_mean_the_same_in_tf2_keep_their_spelling():
    source = "import tensorflow as tf\ni = tf.argmax(logits, 1)\ns = tf.reduce_sum(x, axis=0)\n"
    assert migrated(source) == source
    assert migrated("import tensorflow as tf\ni = tf.argmax(logits, dimension=1)\n") == \
        "import tensorflow as tf\ni = tf.compat.v1.argmax(logits, dimension=1)\n"


def test_attribute_of_a_moved_class_moves_its_prefix():
    assert migrated("import tensorflow as tf\nk = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2\n") == \
        "import tensorflow as tf\nimport estimator_bridge\n\nk = estimator_bridge.InputPipelineConfig.PER_HOST_V2\n"
