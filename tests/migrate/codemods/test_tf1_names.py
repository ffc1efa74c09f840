"""TF1NamesToCompatV1: TF1-only names -> `tf.compat.v1.X`; names that mean the same in TF2 stay."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "TF1NamesToCompatV1"


def test_tf1_only_names_are_spelled_compat_v1():
    assert_codemod(NAME, """
        import tensorflow as tf

        with tf.variable_scope('a'):
            w = tf.get_variable('w', [3])
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.reshape(x, [-1])
        """, """
        import tensorflow as tf

        with tf.compat.v1.variable_scope('a'):
            w = tf.compat.v1.get_variable('w', [3])
        x = tf.compat.v1.placeholder(tf.float32, [None, 3])
        y = tf.reshape(x, [-1])
        """)


def test_code_already_written_against_compat_v1_is_left_alone():
    assert_unchanged(NAME, """
        import tensorflow.compat.v1 as tf

        w = tf.get_variable('w', [3])
        """)


def test_a_name_imported_from_a_moved_module_keeps_its_path_below_the_new_module():
    # `from tensorflow.gfile import Exists` raised ImportError on TF 2 (MIG306) and was left as is.
    assert_codemod(NAME, """
        from tensorflow.gfile import Exists, MakeDirs as make_dirs

        if not Exists(path):
            make_dirs(path)
        """, """
        from tensorflow.compat.v1.gfile import Exists, MakeDirs as make_dirs

        if not Exists(path):
            make_dirs(path)
        """)
