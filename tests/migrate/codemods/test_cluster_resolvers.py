"""ClusterResolversToDistribute: `tf.contrib.cluster_resolver.*` -> `tf.distribute.cluster_resolver.*`,
TPUClusterResolver -> the bridge's (TF 1.15's `tpu=''` local session)."""

from tests.migrate.codemods.support import assert_codemod

NAME = "ClusterResolversToDistribute"


def test_resolvers_move_to_tf_distribute_and_the_tpu_resolver_to_the_bridge():
    assert_codemod(NAME, """
        import tensorflow as tf

        workers = tf.contrib.cluster_resolver.TFConfigClusterResolver()
        resolver = tf.contrib.cluster_resolver.TPUClusterResolver(tpu='grpc://1.2.3.4')
        """, """
        import tensorflow as tf
        import estimator_bridge

        workers = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        resolver = estimator_bridge.TPUClusterResolver(tpu='grpc://1.2.3.4')
        """)


TF1_NAME = "TF1DistributeTPUClusterResolver"


def test_in_tf1_files_the_tf_distribute_spelling_also_becomes_the_bridge_s():
    # tensorflow/tpu's 2019 mnist_tpu.py: TF 1.15 code through tensorflow.compat.v1.
    assert_codemod(TF1_NAME, """
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
