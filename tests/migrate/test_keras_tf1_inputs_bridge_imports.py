"""The bridge's own Keras helper imports do not make a file a Keras file (heldout9: wllqwzx/DL
tf/mlp_use_highLevelAPI.py). A contrib.learn SKCompat classifier's `fit(x, y, batch_size=, steps=)` becomes
keras_methods.fit_tf1 on the first run, which imports estimator_bridge.compat.keras_methods; a second
run then read "keras" in that import and routed the classifier's `predict(X_test)` through
keras_tf1_inputs.predict_tf1, so migrating twice changed the file again."""

from migrate.engine import migrate_text

SOURCE = """import tensorflow as tf

clf = tf.contrib.learn.SKCompat(tf.contrib.learn.DNNClassifier(hidden_units=[3], n_classes=2, feature_columns=c))
clf.fit(x_train, y_train, batch_size=50, steps=100)
y_pred = clf.predict(x_test)
"""


def test_migrating_twice_changes_nothing_more():
    first, _ = migrate_text(SOURCE, "mlp.py")
    second, _ = migrate_text(first, "mlp.py")
    assert "y_pred = clf.predict(x_test)" in first
    assert second == first


def test_a_file_that_names_keras_still_gets_the_rank_1_helper():
    source = "import tensorflow as tf\nmodel = tf.keras.models.load_model(p)\ny = model.predict(x)\n"
    migrated, _ = migrate_text(source, "m.py")
    assert "estimator_bridge.compat.keras_tf1_inputs.predict_tf1(model, x)" in migrated
