"""Cluster resolvers -> `tf.distribute.cluster_resolver.*`; TPUClusterResolver -> the bridge's.

`tf.contrib.cluster_resolver.TPUClusterResolver('')` (`--tpu=` flags) was TF 1.15's local session:
scripts ran on CPU with use_tpu=False. TF 2.2+'s class raises for an empty name, so the TF1
spellings of TPUClusterResolver become `estimator_bridge.TPUClusterResolver`, a subclass of TF's
class that keeps TF 1.15's reading of '' and passes every other name to TF unchanged
(estimator_bridge/cluster_resolver.py). The other resolvers behave the same in TF 2 and move to
`tf.distribute.cluster_resolver`.
"""

from migrate.tables.entries import Replacement

_RESOLVERS = ("ClusterResolver", "GCEClusterResolver", "KubernetesClusterResolver", "SimpleClusterResolver",
              "SlurmClusterResolver", "TFConfigClusterResolver")

_TF1_TPU_CLUSTER_RESOLVER = Replacement("estimator_bridge.TPUClusterResolver")

CLUSTER_RESOLVERS = {
    **{f"tensorflow.contrib.cluster_resolver.{name}": Replacement(f"tensorflow.distribute.cluster_resolver.{name}")
       for name in _RESOLVERS},
    "tensorflow.contrib.cluster_resolver.UnionClusterResolver":
        Replacement("tensorflow.distribute.cluster_resolver.UnionResolver"),
    "tensorflow.contrib.cluster_resolver.TPUClusterResolver": _TF1_TPU_CLUSTER_RESOLVER,
    "tensorflow.contrib.cluster_resolver.python.training.tpu_cluster_resolver.TPUClusterResolver":
        _TF1_TPU_CLUSTER_RESOLVER,
    "tensorflow.contrib.tpu.TPUClusterResolver": _TF1_TPU_CLUSTER_RESOLVER,
    "tensorflow.cluster_resolver.TPUClusterResolver": _TF1_TPU_CLUSTER_RESOLVER,
}

# TF1 files only (codemods/tf1_tpu_cluster_resolver.py): the tf.distribute spelling of TF 1.15
# (also reached as tensorflow.compat.v1.distribute...) had the same '' = local session reading.
TF1_DISTRIBUTE_TPU_CLUSTER_RESOLVER = {
    "tensorflow.distribute.cluster_resolver.TPUClusterResolver": _TF1_TPU_CLUSTER_RESOLVER,
}
