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
