"""`tf.contrib.cluster_resolver.*` -> `tf.distribute.cluster_resolver.*`; TPUClusterResolver -> the bridge's
(TF 1.15's `tpu=''` local session, see migrate/tables/cluster_resolvers.py)."""

from migrate.codemods.base import TableRewrite
from migrate.tables.cluster_resolvers import CLUSTER_RESOLVERS


class ClusterResolversToDistribute(TableRewrite):
    DESCRIPTION = ("Move cluster resolvers from tf.contrib to tf.distribute.cluster_resolver; "
                   "TPUClusterResolver to estimator_bridge's (TF 1.15's tpu='' = local session).")
    TABLE = CLUSTER_RESOLVERS
