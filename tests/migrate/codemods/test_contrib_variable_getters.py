"""ContribVariableGetters: `tf.contrib.framework.get_variables()` & co. -> `tf.compat.v1.global_variables()`
& co. when the call is the same get_collection call (no suffix/collection, scope absent, None or a
string literal). Measured on TF 1.15 (contrib and compat.v1) and TF 2.21 (compat.v1): the same
variables for (), ("tower_0/",), (None,), ("tower_0",)."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "ContribVariableGetters"


def test_calls_without_arguments_or_with_a_literal_scope_become_the_compat_v1_getters():
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow.contrib import framework as contrib_framework

        a = contrib_framework.get_variables()
        b = tf.contrib.framework.get_trainable_variables("tower_0/")
        c = tf.contrib.framework.get_model_variables(scope=None)
        d = tf.contrib.framework.get_local_variables(scope="queue" "s")
        """, """
        import tensorflow as tf

        a = tf.compat.v1.global_variables()
        b = tf.compat.v1.trainable_variables("tower_0/")
        c = tf.compat.v1.model_variables(scope=None)
        d = tf.compat.v1.local_variables(scope="queue" "s")
        """)


def test_a_scope_that_may_be_a_variable_scope_a_suffix_or_a_collection_leave_the_call():
    # (the findings of these calls come from the table pass, which this test does not run)
    assert_unchanged(NAME, """
        import tensorflow as tf

        with tf.variable_scope("tower") as scope:
            a = tf.contrib.framework.get_variables(scope)
        b = tf.contrib.framework.get_variables("s", suffix="w")
        c = tf.contrib.framework.get_variables(None, None, tf.GraphKeys.LOCAL_VARIABLES)
        d = tf.contrib.framework.get_variables(**kwargs)
        getter = tf.contrib.framework.get_variables
        """)
