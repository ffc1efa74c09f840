"""DimensionValueToCompat: `x.shape[i].value` -> `tf.compat.dimension_value(x.shape[i])`."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "DimensionValueToCompat"


def test_dimension_reads_through_shape_and_get_shape():
    assert_codemod(NAME, """
        def width(x):
            return x.shape[-1].value * x.get_shape()[1].value
        """, """
        import tensorflow as tf

        def width(x):
            return tf.compat.dimension_value(x.shape[-1]) * tf.compat.dimension_value(x.get_shape()[1])
        """)


def test_a_dimension_held_in_a_variable_or_a_slice_stays():
    assert_unchanged(NAME, """
        d = x.shape[0]
        y = d.value + x.shape[1:].value
        """)
