"""Feature columns in a Keras model: Keras 3 has no DenseFeatures (before/after pairs, oracle test).

GoogleCloudPlatform/training-data-analyst's `08_Taxifare_Keras_FeatureColumns_solution.ipynb` (6ed045998,
2019-01-17) builds `tf.keras.Sequential([fc.FeatureLayer(columns), Dense...])` (TF 1.13's name of
`tf.keras.layers.DenseFeatures`). Keras 3 has neither: the `--keras 3` copy stopped at
"AttributeError: module 'keras._tf_keras.keras.layers' has no attribute 'DenseFeatures'" (a MIG305
finding), and `--keras 2` left `fc.FeatureLayer` to MIG305 too. Now both names become
estimator_bridge.compat.keras_dense_features.DenseFeatures on `--keras 3` and
`tf_keras.layers.DenseFeatures` on `--keras 2`. tests/migrate/programs/keras_dense_features.py
(numeric, bucketized, indicator, crossed and identity embedding columns; SGD on a dataset of dicts)
measured against TF 1.15 (TF 2.21 + Keras 3.15, CPU): losses within 3.0e-8 relative, predictions 1.0e-7,
weight norms 6.6e-8;
held to 1e-6.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_dense_features.py"
BEFORE = ("import tensorflow as tf\n"
          "from tensorflow.python.feature_column import feature_column_v2 as fc\n"
          "columns = [fc.numeric_column('a')]\n"
          "first = tf.keras.Sequential([fc.FeatureLayer(columns), tf.keras.layers.Dense(1)])\n"
          "second = tf.keras.Sequential([tf.keras.layers.DenseFeatures(columns), tf.keras.layers.Dense(1)])\n")
AFTER_KERAS3 = ("import tensorflow as tf\n"
                "from tensorflow.python.feature_column import feature_column_v2 as fc\n"
                "import estimator_bridge.compat.keras_dense_features\n\n"
                "columns = [fc.numeric_column('a')]\n"
                "first = tf.keras.Sequential([estimator_bridge.compat.keras_dense_features.DenseFeatures(columns), "
                "tf.keras.layers.Dense(1)])\n"
                "second = tf.keras.Sequential([estimator_bridge.compat.keras_dense_features.DenseFeatures(columns), "
                "tf.keras.layers.Dense(1)])\n")
AFTER_KERAS2 = ("import tensorflow as tf\n"
                "from tensorflow.python.feature_column import feature_column_v2 as fc\n"
                "import tf_keras\n\n"
                "columns = [fc.numeric_column('a')]\n"
                "first = tf_keras.Sequential([tf_keras.layers.DenseFeatures(columns), tf_keras.layers.Dense(1)])\n"
                "second = tf_keras.Sequential([tf_keras.layers.DenseFeatures(columns), tf_keras.layers.Dense(1)])\n")


@pytest.mark.parametrize(("target", "after"), [("3", AFTER_KERAS3), ("2", AFTER_KERAS2)])
def test_feature_layer_and_dense_features_get_a_layer_of_the_target_keras(target, after, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated, findings = migrate_text(BEFORE, "model.py", verify=True)
    assert migrated == after
    assert findings == []


def test_the_layer_is_a_keras_3_layer_over_tensorflows_feature_columns():
    import keras
    import tensorflow as tf

    from estimator_bridge.compat.keras_dense_features import DenseFeatures

    day = tf.feature_column.categorical_column_with_vocabulary_list("day", ["Sun", "Mon"])
    layer = DenseFeatures([tf.feature_column.numeric_column("b"), tf.feature_column.indicator_column(day),
                           tf.feature_column.embedding_column(day, 2)])
    assert isinstance(layer, keras.layers.Layer)
    out = layer({"b": tf.constant([[2.0], [3.0]]), "day": tf.constant([["Mon"], ["Sun"]])})
    assert out.shape == (2, 5) and [w.shape for w in layer.weights] == [(2, 2)]
    np.testing.assert_array_equal(out.numpy()[:, 0], [2.0, 3.0])                 # "b" sorts first
    np.testing.assert_array_equal(out.numpy()[:, 3:], [[0.0, 1.0], [1.0, 0.0]])  # "day_indicator" last
    with pytest.raises(ValueError, match="DenseColumn"):
        DenseFeatures([day])


@pytest.mark.oracle
def test_the_migrated_feature_column_model_reproduces_tf_1_15(tmp_path):
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "estimator_bridge.compat.keras_dense_features.DenseFeatures(columns)" in migrated and findings == []
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    ours = run_current_json(path)
    assert ours["shapes"] == oracle["shapes"]   # the same weights in the same order: sorted columns
    for key in ("loss", "predictions", "weights"):
        np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-6, err_msg=key)
