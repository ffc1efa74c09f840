"""KerasArgumentSpellings: Keras 2 optimizer keywords -> their Keras 3 names."""

from tests.migrate.codemods.support import assert_codemod

NAME = "KerasArgumentSpellings"


def test_lr_is_renamed_and_a_keyword_without_equivalent_is_reported():
    assert_codemod(NAME, """
        import tensorflow as tf

        opt = tf.keras.optimizers.Adam(lr=0.001)
        opt = tf.keras.optimizers.SGD(0.1, decay=0.01)
        """, """
        import tensorflow as tf

        opt = tf.keras.optimizers.Adam(learning_rate=0.001)
        opt = tf.keras.optimizers.SGD(0.1, decay=0.01)
        """, findings=["4:7 MIG201"])
