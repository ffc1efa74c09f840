"""ContribDataApplyToMethods: `ds.apply(tf.contrib.data.X(...))` -> Dataset method chains."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "ContribDataApplyToMethods"


def test_map_and_batch_becomes_map_then_batch():
    assert_codemod(NAME, """
        import tensorflow as tf

        ds = ds.apply(tf.contrib.data.map_and_batch(parse, 32, drop_remainder=True))
        """, """
        import tensorflow as tf

        ds = ds.map(parse).batch(32, drop_remainder=True)
        """)


def test_arguments_without_an_exact_equivalent_leave_the_call():
    assert_unchanged(NAME, """
        import tensorflow as tf

        ds = ds.apply(tf.contrib.data.batch_and_drop_remainder(8, 9, 10))
        """)
