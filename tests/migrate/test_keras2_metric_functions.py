"""A program's own metric functions get Keras 2's inputs on Keras 3 (before/after pairs, oracle test).

Keras 2 (TF 1.15's tf.keras to TF 2.15's) cast `y_true` and `y_pred` to float32 and brought them to one rank before calling a
metric function given to `compile(metrics=[fn])`; Keras 3 calls it on the tensors as they come, so a
`Dense(1)` output (batch, 1) against labels (batch,) broadcasts to (batch, batch) in a user's `rmse`.
training-data-analyst's `08_Taxifare_Keras_FeatureColumns_solution.ipynb` (6ed045998, 2019): every batch's
`rmse` and `val_rmse` outside on the Keras 3 copy (26.67583 against TF 1.15's 26.68007, 1.6e-4), its loss
equal. tests/migrate/programs/keras_metric_function.py against TF 1.15 (TF 2.21 + Keras 3.15, CPU): as
migrated before, rmse 1.5846856 against 1.5789741 (3.6e-3) and mae 4.5e-3 off; now every number equal.
TF 2.15 (Keras 2.15) gives TF 1.15's numbers on that program too, so every Keras 2 file gets the wrapper.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_metric_function.py"
BEFORE = ("import tensorflow as tf\n"
          "from tensorflow.keras import metrics\n"
          "from tensorflow.keras.metrics import mse\n"
          "from my_metrics import auc_roc\n"
          "def rmse(y_true, y_pred):\n"
          "    return tf.sqrt(tf.reduce_mean(tf.square(y_pred - y_true)))\n"
          "model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])\n"
          "model.compile(optimizer='sgd', loss='mse', metrics=[rmse, metrics.mae, 'mse', mse, auc_roc])\n")
AFTER = ("import tensorflow as tf\n"
         "from tensorflow.keras import metrics\n"
         "from tensorflow.keras.metrics import mse\n"
         "from my_metrics import auc_roc\n"
         "import estimator_bridge.compat.keras2_metrics\n\n"
         "def rmse(y_true, y_pred):\n"
         "    return tf.sqrt(tf.reduce_mean(tf.square(y_pred - y_true)))\n"
         "model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])\n"
         "model.compile(optimizer='sgd', loss='mse', "
         "metrics=[estimator_bridge.compat.keras2_metrics.metric(rmse), metrics.mae, 'mean_squared_error', mse, "
         "estimator_bridge.compat.keras2_metrics.metric(auc_roc)])\n")


def test_own_metric_functions_are_wrapped_on_keras_3(monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, "3")
    migrated, findings = migrate_text(BEFORE, "model.py", verify=True)
    assert migrated == AFTER      # Keras' own metrics are left; the string keeps TF 1.x's name
    assert findings == []


def test_the_keras_2_target_keeps_them(monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, "2")
    migrated, _ = migrate_text(BEFORE, "model.py", verify=True)
    assert "metrics=[rmse, metrics.mae" in migrated          # tf-keras calls them as Keras 2 did


def test_the_wrapper_keeps_the_name_and_passes_metric_objects_through():
    import keras

    from estimator_bridge.compat.keras2_metrics import metric

    def rmse(y_true, y_pred):
        import tensorflow as tf
        return tf.sqrt(tf.reduce_mean(tf.square(y_pred - y_true)))

    wrapped = metric(rmse)
    assert isinstance(wrapped, keras.metrics.MeanMetricWrapper) and wrapped.name == "rmse"
    wrapped.update_state(np.array([1.0, 2.0], np.float32), np.array([[1.0], [4.0]], np.float32))
    assert float(wrapped.result()) == pytest.approx(np.sqrt(2.0))   # (0, 2) paired; broadcast gives sqrt(2.5)
    mae = keras.metrics.MeanAbsoluteError()
    assert metric(mae) is mae and metric("mae") == "mae" and metric(keras.metrics.AUC) is keras.metrics.AUC


@pytest.mark.oracle
def test_the_migrated_metric_functions_reproduce_tf_1_15(tmp_path):
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "metrics=[estimator_bridge.compat.keras2_metrics.metric(rmse), " in migrated and findings == []
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    ours = run_current_json(path)
    assert ours["keys"] == oracle["keys"] == ["loss", "mae", "rmse"]
    for key in ("loss", "rmse", "mae", "evaluate"):
        np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-6, err_msg=key)
