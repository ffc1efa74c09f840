"""KerasCompileOptimizers: a TF1 optimizer given to Keras compile becomes the Keras optimizer with the same
update, TF1's defaults written out (numbers: tests/migrate/test_keras_optimizers.py, oracle)."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasCompileOptimizers"


def test_tf1_optimizers_in_compile_become_keras_ones_with_tf1_defaults():
    assert_codemod(NAME, """
        import tensorflow as tf

        model.compile(optimizer=tf.train.AdamOptimizer(learning_rate=1e-3), loss="mse")
        sgd = tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)
        other.compile(sgd, "mse")
        """, """
        import tensorflow as tf

        model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1e-3, epsilon=1e-08), loss="mse")
        sgd = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=True)
        other.compile(sgd, "mse")
        """)


def test_an_optimizer_keras_has_no_counterpart_for_is_reported_and_graph_code_is_left():
    assert_unchanged(NAME, """
        import tensorflow as tf

        model.compile(optimizer=tf.train.ProximalAdagradOptimizer(0.1), loss="mse")
        train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
        """, findings=["3:25 MIG206"])
