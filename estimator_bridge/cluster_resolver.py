"""TF 1.15's `TPUClusterResolver`: an empty TPU name means the local, in-process session.

2018-2020 TPU scripts start with `TPUClusterResolver(FLAGS.tpu, zone=..., project=...)` and were
run on CPU with `--tpu= --use_tpu=False`: TF 1.15 read `tpu=''` as the local session (master
`''`, no cluster spec) and the program trained on the CPU. TF 2.2+ raises `ValueError: Please
provide a TPU Name to connect to.` for `''`, so the unchanged script dies on its first line.

This subclass of TF's current class keeps TF 1.15's reading of `''` (and `b''`, `['']`):
`master()` is `''`, `cluster_spec()` is None, `environment` is `'google'`, and the bridge's
TPUEstimator treats it as "no TPU named" (`local_session`): CPU with use_tpu=False, emulated
cores with use_tpu=True. Every other name (a Cloud TPU name, `grpc://...`, `'local'` on a TPU
VM) goes to TF's class unchanged. `tpu=None` reads `TPU_NAME` and otherwise raises, as in
TF 1.15 (with a message saying how to run without a TPU).
"""

from __future__ import annotations

import tensorflow as tf

_CurrentResolver = tf.distribute.cluster_resolver.TPUClusterResolver


def _tf1_tpu_name(tpu):
    """TF 1.15's argument handling: a one-element list, bytes, None (TPU_NAME or an error)."""
    if isinstance(tpu, list):
        if not tpu:
            raise ValueError("At least one TPU must be specified.")
        if len(tpu) != 1:
            raise NotImplementedError(
                "Using multiple TPUs in a single session is not yet implemented")
        tpu = tpu[0]
    if isinstance(tpu, (bytes, bytearray)):
        tpu = bytes(tpu).decode("utf-8")
    return tpu


class TPUClusterResolver(_CurrentResolver):
    """`tf.contrib.cluster_resolver.TPUClusterResolver` with TF 1.15's meaning of `tpu=''`.

    Attributes:
      local_session: True when the name was empty (TF 1.15's local session): no TPU is named.
    """

    def __init__(self, tpu=None, zone=None, project=None, job_name="worker",
                 coordinator_name=None, coordinator_address=None, credentials="default",
                 service=None, discovery_url=None):
        tpu = _tf1_tpu_name(tpu)
        self.local_session = tpu == ""
        try:
            super().__init__(tpu="local" if self.local_session else tpu, zone=zone,
                             project=project, job_name=job_name,
                             coordinator_name=coordinator_name,
                             coordinator_address=coordinator_address, credentials=credentials,
                             service=service, discovery_url=discovery_url)
        except ValueError as error:
            if tpu is None and "TPU Name" in str(error):
                raise ValueError(
                    f"{error} TPUClusterResolver(tpu=None) found no TPU_NAME in the environment "
                    "(TF 1.15 raised here too). To run without a TPU, pass tpu='' (e.g. "
                    "--tpu=), TF 1.15's local session, with use_tpu=False.") from error
            raise

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        if self.local_session:
            return ""
        return super().master(task_type, task_id, rpc_layer)

    def cluster_spec(self):
        if self.local_session:
            return None  # TF 1.15: a local session has no cluster
        return super().cluster_spec()

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        if self.local_session:
            return {"TPU": len(tf.config.list_logical_devices("TPU"))}
        return super().num_accelerators(task_type, task_id, config_proto)

    @property
    def environment(self):
        return "google" if self.local_session else super().environment

    def __repr__(self):
        if self.local_session:
            return "<TPUClusterResolver tpu='' (local session, no TPU named)>"
        return super().__repr__()


def names_local_session(cluster) -> bool:
    """True for a resolver that names no TPU (TF 1.15's `tpu=''`)."""
    return bool(getattr(cluster, "local_session", False))
