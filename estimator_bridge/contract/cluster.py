"""The cluster a process belongs to, read from `TF_CONFIG` as TF1's RunConfig read it.

`TF_CONFIG` is JSON: `{"cluster": {"chief": [...], "worker": ["host:port", ...]}, "task":
{"type": "worker", "index": 1}}`. TF1's RunConfig exposed `cluster_spec`, `task_type`,
`task_id`, `is_chief`, `num_worker_replicas`, `num_ps_replicas` and `global_id_in_cluster`
from it; `ClusterInfo` holds exactly those. One rule differs, on purpose: TF1's Estimator
required a `chief` job, while TF 2's MultiWorkerMirroredStrategy (what the bridge runs on)
makes worker 0 the chief when there is none; the bridge accepts both layouts.
"""

from __future__ import annotations

import dataclasses
import json
import os

import tensorflow as tf

_CHIEF_JOBS = ("chief", "master")
_WORKER_JOBS = ("chief", "master", "worker")


@dataclasses.dataclass(frozen=True)
class ClusterInfo:
    """This process's place in the cluster (TF1 RunConfig's distributed properties)."""

    cluster_spec: tf.train.ClusterSpec
    task_type: str
    task_id: int
    is_chief: bool
    num_worker_replicas: int
    num_ps_replicas: int
    global_id_in_cluster: int
    task_address: str | None

    @property
    def is_multi_worker(self) -> bool:
        return self.num_worker_replicas > 1


LOCAL = ClusterInfo(tf.train.ClusterSpec({}), "worker", 0, True, 1, 0, 0, None)


def _error(message: str, tf_config) -> ValueError:
    return ValueError(f"TF_CONFIG {tf_config!r:.300}: {message}")


def from_tf_config(tf_config: str | dict | None) -> ClusterInfo:
    """Parses TF_CONFIG (a JSON string or dict); None or '' is a single local process.

    Raises:
      ValueError: malformed JSON, a task missing from the cluster, or a task type the bridge
        cannot run (the message names the value and the fix).
    """
    if not tf_config:
        return LOCAL
    if isinstance(tf_config, str):
        try:
            tf_config = json.loads(tf_config)
        except json.JSONDecodeError as error:
            raise ValueError(f"TF_CONFIG is not valid JSON ({error}): {tf_config!r:.200}. Set "
                             'it to e.g. {"cluster": {"worker": ["host:port", ...]}, "task": '
                             '{"type": "worker", "index": 0}}.') from error
    cluster = tf_config.get("cluster") or {}
    task = tf_config.get("task") or {}
    if not cluster:
        return LOCAL
    task_type = task.get("type")
    task_id = task.get("index", 0)
    if task_type is None:
        raise _error('has a "cluster" but no "task": {"type": ..., "index": ...}; add the task '
                     "this process runs.", tf_config)
    if not isinstance(task_id, int) or task_id < 0:
        raise _error(f'task index {task_id!r} must be an integer >= 0.', tf_config)
    if task_type != "evaluator" and len(cluster.get(task_type, ())) <= task_id:
        raise _error(f"task {task_type}:{task_id} is not in the cluster (job {task_type!r} has "
                     f"{len(cluster.get(task_type, ()))} task(s)); fix the task index or add "
                     "the task's address to the cluster.", tf_config)
    spec = tf.train.ClusterSpec(cluster)
    if task_type == "evaluator":
        # TF1's RunConfig: "Evaluator is not part of the training cluster" (empty cluster_spec,
        # no worker or ps replicas, global id undefined).
        return ClusterInfo(tf.train.ClusterSpec({}), task_type, task_id, False, 0, 0, None, None)
    chief_job = next((job for job in _CHIEF_JOBS if cluster.get(job)), None)
    # Without a chief or master job, worker 0 is the chief: MultiWorkerMirroredStrategy's rule
    # (TF 1.15's RunConfig refused such a cluster; docs/semantics.md section 2).
    is_chief = task_type == chief_job if chief_job else (task_type == "worker" and task_id == 0)
    num_workers = sum(len(cluster.get(job, ())) for job in _WORKER_JOBS)
    return ClusterInfo(spec, task_type, task_id, is_chief, num_workers,
                       len(cluster.get("ps", ())),
                       _global_id_in_cluster(cluster, task_type, task_id, chief_job or "worker"),
                       cluster[task_type][task_id])


def _global_id_in_cluster(cluster: dict, task_type: str, task_id: int, chief_job: str) -> int:
    """TF1's numbering: the chief job first, the other jobs by name, parameter servers last."""
    order = [chief_job] + sorted(job for job in cluster if job not in (chief_job, "ps"))
    order += ["ps"] if "ps" in cluster else []
    return sum(len(cluster[job]) for job in order[:order.index(task_type)]) + task_id


def from_environment() -> ClusterInfo:
    """The ClusterInfo of `os.environ['TF_CONFIG']` (a single local process when unset)."""
    return from_tf_config(os.environ.get("TF_CONFIG"))


def check_can_train(info: ClusterInfo) -> None:
    """Whether this task may train with the bridge (synchronous all-reduce over the workers).

    Raises:
      ValueError: the cluster has parameter servers (the bridge runs synchronous all-reduce
        training only) or this task is not a worker.
    """
    if info.num_ps_replicas:
        raise ValueError(
            f"TF_CONFIG lists {info.num_ps_replicas} ps task(s): estimator_bridge trains with "
            "synchronous all-reduce (MultiWorkerMirroredStrategy) and has no parameter "
            "servers. Remove the 'ps' job from TF_CONFIG's cluster.")
    if info.task_type not in _WORKER_JOBS:
        raise ValueError(
            f"this process is TF_CONFIG task {info.task_type}:{info.task_id}; only chief/worker "
            "tasks train with the bridge. Run evaluation in a separate program without "
            "TF_CONFIG (estimator.evaluate reads model_dir's checkpoints).")
