"""`tf.contrib.cluster_resolver.*` -> `tf.distribute.cluster_resolver.*`; TPUClusterResolver -> the bridge's
(TF 1.15's `tpu=''` local session, see migrate/tables/cluster_resolvers.py)."""

from migrate.codemods.registry import Codemod
from migrate.tables.cluster_resolvers import CLUSTER_RESOLVERS

CODEMOD = Codemod(
    name="ClusterResolversToDistribute",
    description=("Move cluster resolvers from tf.contrib to tf.distribute.cluster_resolver; "
                 "TPUClusterResolver to estimator_bridge's (TF 1.15's tpu='' = local session)."),
    order=22,
    table=CLUSTER_RESOLVERS,
)
