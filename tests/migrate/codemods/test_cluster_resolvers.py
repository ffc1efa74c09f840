"""ClusterResolversToDistribute: `tf.contrib.cluster_resolver.*` -> `tf.distribute.cluster_resolver.*`."""

from tests.migrate.codemods.support import assert_codemod

NAME = "ClusterResolversToDistribute"


def test_tpu_cluster_resolver_moves_to_tf_distribute():
    assert_codemod(NAME, """
        import tensorflow as tf

        resolver = tf.contrib.cluster_resolver.TPUClusterResolver(tpu='grpc://1.2.3.4')
        """, """
        import tensorflow as tf

        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu='grpc://1.2.3.4')
        """)
