"""`tf.contrib.cluster_resolver.*` -> `tf.distribute.cluster_resolver.*`."""

from migrate.codemods.base import TableRewrite
from migrate.tables.cluster_resolvers import CLUSTER_RESOLVERS


class ClusterResolversToDistribute(TableRewrite):
    DESCRIPTION = "Move cluster resolvers from tf.contrib to tf.distribute.cluster_resolver."
    TABLE = CLUSTER_RESOLVERS
