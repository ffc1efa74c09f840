"""TF 1.14/1.15's `tf.contrib.distribute.initialize_tpu_system(cluster_resolver)` on TensorFlow 2.x.

TF 1.x initialised a TPU named by a resolver directly (its eager context and sessions reached the
TPU worker through the resolver's master). TF 2.x's `tf.tpu.experimental.initialize_tpu_system`
only finds a remote TPU once `tf.config.experimental_connect_to_cluster(resolver)` has made the
worker's devices part of the eager context; without it, a Cloud TPU Node raises NotFoundError.
estimator-migrate rewrites `tf.contrib.distribute.initialize_tpu_system(resolver)` to this
function, which connects first when the resolver names a remote master (`grpc://...`); a TPU VM
(`tpu='local'`, master '') and a resolver-less call initialise as TF 2.x does.
"""

from __future__ import annotations


def remote_master(cluster_resolver) -> bool:
    """Does the resolver name a TPU worker reached over the network (a Cloud TPU Node)?"""
    master = getattr(cluster_resolver, "master", None)
    if master is None:
        return False
    address = master() if callable(master) else master
    if isinstance(address, bytes):
        address = address.decode()
    return isinstance(address, str) and address.startswith("grpc://")


def initialize_tpu_system(cluster_resolver=None):
    """Connect to the resolver's cluster when it is remote, then initialise the TPU system."""
    import tensorflow as tf

    if cluster_resolver is not None and remote_master(cluster_resolver):
        tf.config.experimental_connect_to_cluster(cluster_resolver)
    return tf.tpu.experimental.initialize_tpu_system(cluster_resolver)
