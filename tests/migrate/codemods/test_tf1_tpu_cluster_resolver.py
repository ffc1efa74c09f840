"""TF1DistributeTPUClusterResolver: in TF1 files, `tf.distribute.cluster_resolver.TPUClusterResolver`
-> the bridge's (TF 1.15's `tpu=''` local session); files written against TF2 keep TF2's class."""

from tests.migrate.codemods.support import assert_codemod

NAME = "TF1DistributeTPUClusterResolver"


def test_in_tf1_files_the_tf_distribute_spelling_also_becomes_the_bridge_s():
    # tensorflow/tpu's 2019 mnist_tpu.py: TF 1.15 code through tensorflow.compat.v1.
    assert_codemod(NAME, """
        import tensorflow.compat.v1 as tf

        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(FLAGS.tpu or "")
        """, """
        import tensorflow.compat.v1 as tf
        import estimator_bridge

        resolver = estimator_bridge.TPUClusterResolver(FLAGS.tpu or "")
        """)


def test_files_written_against_tf2_keep_tf2_s_class():
    from migrate.engine import migrate_text

    source = ("import tensorflow as tf\n\n"
              "resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu='')\n"
              "strategy = tf.distribute.TPUStrategy(resolver)\n")
    migrated, _ = migrate_text(source)
    assert migrated == source
