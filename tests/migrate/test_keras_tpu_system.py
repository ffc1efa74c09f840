"""The migrated `tf.contrib.distribute.initialize_tpu_system(resolver)` connects to a remote TPU first
(estimator_bridge.compat.tpu_system), as TF 2.x needs; a local or absent resolver is not connected."""

import tensorflow as tf

from estimator_bridge.compat.tpu_system import remote_master


def test_a_cloud_tpu_node_is_remote_and_a_tpu_vm_is_not():
    node = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="grpc://10.0.0.2:8470")
    assert remote_master(node)
    local = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec({}), master="")
    assert not remote_master(local)
    assert not remote_master(object())
