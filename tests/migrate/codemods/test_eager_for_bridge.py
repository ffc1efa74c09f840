"""EagerForBridge: Estimator files keep eager mode (the bridge traces model_fn in tf.function)."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "EagerForBridge"


def test_switches_in_an_estimator_file_are_replaced_or_removed_and_reported():
    assert_codemod(NAME, """
        import tensorflow as tf

        tf.disable_v2_behavior()
        tf.disable_eager_execution()
        estimator = tf.estimator.Estimator(model_fn)
        """, """
        import tensorflow as tf

        tf.compat.v1.disable_v2_tensorshape()
        estimator = tf.estimator.Estimator(model_fn)
        """, findings=["3:1 MIG102", "4:1 MIG102"])


def test_session_scripts_without_an_estimator_keep_graph_mode():
    assert_unchanged(NAME, """
        import tensorflow as tf

        tf.disable_v2_behavior()
        with tf.Session() as session:
            pass
        """)
