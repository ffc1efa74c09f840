"""KerasCompileOptimizers: a TF1 optimizer given to Keras compile becomes a Keras 3 optimizer with TF 1.x's
update (numbers: tests/migrate/test_keras_optimizers.py, oracle)."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasCompileOptimizers"


def test_tf1_optimizers_in_compile_become_keras_3_optimizers_with_tf1_updates():
    assert_codemod(NAME, """
        import tensorflow as tf

        model.compile(optimizer=tf.train.AdamOptimizer(learning_rate=1e-3), loss="mse")
        sgd = tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)
        other.compile(sgd, "mse")
        model.compile(tf.train.RMSPropOptimizer(0.05, 0.9, 0.0, 1e-10, True), "mse")
        model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_tf1_optimizers

        model.compile(optimizer=estimator_bridge.compat.keras_tf1_optimizers.Adam(learning_rate=1e-3), loss="mse")
        sgd = estimator_bridge.compat.keras_tf1_optimizers.Momentum(learning_rate=0.1, momentum=0.9, use_nesterov=True)
        other.compile(sgd, "mse")
        model.compile(estimator_bridge.compat.keras_tf1_optimizers.RMSProp(learning_rate=0.05, decay=0.9, momentum=0.0, epsilon=1e-10), "mse")
        model.compile(tf.keras.optimizers.SGD(learning_rate=0.1), "mse")
        """)


def test_an_optimizer_keras_has_no_counterpart_for_is_reported_and_graph_code_is_left():
    assert_unchanged(NAME, """
        import tensorflow as tf

        model.compile(optimizer=tf.train.ProximalAdagradOptimizer(0.1), loss="mse")
        train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
        """, findings=["3:25 MIG206"])
