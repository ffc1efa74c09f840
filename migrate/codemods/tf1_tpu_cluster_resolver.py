"""In TF1 files, `tf.distribute.cluster_resolver.TPUClusterResolver` -> the bridge's too.

TF 1.15 code often spelled the resolver through tf.distribute (or `tensorflow.compat.v1`, e.g.
`TPUClusterResolver(FLAGS.tpu if (FLAGS.tpu or FLAGS.use_tpu) else "")`): in TF 1.15 that is the
same class, and `''` is the local session.
TF 2.2+'s class raises for `''`, so in files written for TF1 (no TF2-only name, engine.tf2_marker)
this spelling also becomes `estimator_bridge.TPUClusterResolver` (estimator_bridge/
cluster_resolver.py: TF 1.15's reading of `''`, every other name passed to TF's class).
Files written against TF2 keep TF2's class.
"""

from migrate.codemods.registry import Codemod
from migrate.tables.cluster_resolvers import TF1_DISTRIBUTE_TPU_CLUSTER_RESOLVER

CODEMOD = Codemod(
    name="TF1DistributeTPUClusterResolver",
    description=("In TF1 files, tf.distribute.cluster_resolver.TPUClusterResolver to "
                 "estimator_bridge's (TF 1.15's tpu='' = local session)."),
    order=23,
    table=TF1_DISTRIBUTE_TPU_CLUSTER_RESOLVER,
    tf1_only=True,
)
