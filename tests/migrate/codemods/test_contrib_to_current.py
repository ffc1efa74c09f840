"""ContribHelpersToCurrent: contrib helpers with a current equivalent; the others are reported."""

from tests.migrate.codemods.support import assert_codemod

NAME = "ContribHelpersToCurrent"


def test_helpers_with_an_equivalent_are_replaced_and_the_rest_reported():
    assert_codemod(NAME, """
        import tensorflow as tf

        w = tf.contrib.layers.xavier_initializer()
        tf.contrib.summary.scalar('loss', loss, step=step)
        x = tf.contrib.seq2seq.sequence_loss(logits, targets, weights)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.contrib_helpers

        w = estimator_bridge.compat.contrib_helpers.xavier_initializer()
        tf.compat.v2.summary.scalar('loss', loss, step=step)
        x = tf.contrib.seq2seq.sequence_loss(logits, targets, weights)
        """, findings=["5:5 MIG301"])


def test_tf_contrib_keras_is_tf_keras():
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow.contrib import keras as contrib_keras

        dense = tf.contrib.keras.layers.Dense(3)
        conv = contrib_keras.layers.Conv2D(8, 3)
        """, """
        import tensorflow as tf
        from tensorflow import keras as contrib_keras

        dense = tf.keras.layers.Dense(3)
        conv = contrib_keras.layers.Conv2D(8, 3)
        """)


def test_contrib_lookup_vocabulary_tables_go_to_the_bridge():
    # guillaumegenthial/tf_ner models/*/main.py (heldout3); the numbers: fixture contrib/contrib_lookup
    assert_codemod(NAME, """
        import tensorflow as tf

        vocab_words = tf.contrib.lookup.index_table_from_file(params['words'], num_oov_buckets=1)
        reverse_tags = tf.contrib.lookup.index_to_string_table_from_file(params['tags'])
        classes = tf.contrib.lookup.index_to_string(ids, mapping=labels)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.contrib_lookup

        vocab_words = estimator_bridge.compat.contrib_lookup.index_table_from_file(params['words'], num_oov_buckets=1)
        reverse_tags = estimator_bridge.compat.contrib_lookup.index_to_string_table_from_file(params['tags'])
        classes = estimator_bridge.compat.contrib_lookup.index_to_string(ids, mapping=labels)
        """)


def test_slims_layers_initializers_and_regularizers_submodules_are_contrib_layers():
    # TF-Slim star-imported contrib.layers' package, so `slim.layers.conv2d` and
    # `slim.initializers.xavier_initializer` were contrib.layers' objects (heldout5: tensorpack's
    # mnist-tfslim.py, davidsandberg/facenet's inception_resnet_v1.py); they were left as MIG302.
    assert_codemod(NAME, """
        import tensorflow as tf
        import tensorflow.contrib.slim as slim

        net = slim.layers.conv2d(x, 32, [3, 3], scope='conv0')
        init = slim.initializers.xavier_initializer()
        reg = slim.regularizers.l2_regularizer(1e-5)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.contrib_helpers
        import estimator_bridge.compat.contrib_layers

        net = estimator_bridge.compat.contrib_layers.conv2d(x, 32, [3, 3], scope='conv0')
        init = estimator_bridge.compat.contrib_helpers.xavier_initializer()
        reg = estimator_bridge.compat.contrib_helpers.l2_regularizer(1e-5)
        """)
