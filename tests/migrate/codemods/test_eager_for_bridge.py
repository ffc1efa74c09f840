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


def test_the_word_estimator_in_a_string_or_comment_does_not_make_an_estimator_file():
    # google-research/text-to-text-transfer-transformer @ e013939 t5/models/mesh_transformer_main.py:
    # flags.DEFINE_string("model_dir", ..., "Estimator model_dir"); tf.disable_v2_behavior() was
    # replaced, turning eager mode on in a file that never builds an Estimator itself.
    assert_unchanged(NAME, """
        \"\"\"Trains with an Estimator elsewhere.\"\"\"
        import tensorflow.compat.v1 as tf

        flags.DEFINE_string("model_dir", "/tmp/model", "Estimator model_dir")  # TPUEstimator
        tf.disable_v2_behavior()
        x = tf.placeholder(tf.float32)
        """)


def test_an_estimator_named_in_code_still_counts():
    assert_codemod(NAME, """
        import tensorflow as tf
        from adanet import Estimator

        tf.disable_v2_behavior()
        """, """
        import tensorflow as tf
        from adanet import Estimator

        tf.compat.v1.disable_v2_tensorshape()
        """, findings=["4:1 MIG102"])
