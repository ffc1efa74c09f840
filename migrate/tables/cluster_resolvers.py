"""Cluster resolvers -> `tf.distribute.cluster_resolver.*`."""

from migrate.tables.entries import Replacement

_RESOLVERS = ("ClusterResolver", "GCEClusterResolver", "KubernetesClusterResolver", "SimpleClusterResolver",
              "SlurmClusterResolver", "TFConfigClusterResolver", "TPUClusterResolver", "UnionClusterResolver")

CLUSTER_RESOLVERS = {
    **{f"tensorflow.contrib.cluster_resolver.{name}": Replacement(f"tensorflow.distribute.cluster_resolver.{name}")
       for name in _RESOLVERS if name != "UnionClusterResolver"},
    "tensorflow.contrib.cluster_resolver.UnionClusterResolver":
        Replacement("tensorflow.distribute.cluster_resolver.UnionResolver"),
    "tensorflow.contrib.tpu.TPUClusterResolver": Replacement("tensorflow.distribute.cluster_resolver.TPUClusterResolver"),
    "tensorflow.cluster_resolver.TPUClusterResolver": Replacement("tensorflow.distribute.cluster_resolver.TPUClusterResolver"),
}
