"""TFLayersToBridge: `tf.layers.*` -> `estimator_bridge.layers.*` (removed with Keras 3)."""

from tests.migrate.codemods.support import assert_codemod

NAME = "TFLayersToBridge"


def test_layer_functions_point_at_the_bridge_and_other_names_stay():
    assert_codemod(NAME, """
        import tensorflow as tf

        h = tf.layers.dense(x, 10, activation=tf.nn.relu)
        h = tf.layers.conv2d(h, 8, 3)
        """, """
        import tensorflow as tf
        import estimator_bridge

        h = estimator_bridge.layers.dense(x, 10, activation=tf.nn.relu)
        h = estimator_bridge.layers.conv2d(h, 8, 3)
        """)
