"""contract/cluster.py: TF_CONFIG read into RunConfig's cluster properties with TF 1.15's rules."""

from __future__ import annotations

import json

import pytest

import estimator_bridge as tpu
from estimator_bridge.contract import cluster
from tests.support.oracles import oracle_python, run_json

# ---- RunConfig reads TF_CONFIG ---------------------------------------------------------------

CLUSTER = {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"], "ps": ["host3:2222"]}


@pytest.mark.parametrize("task, expected", [
    ({"type": "chief", "index": 0}, ("chief", 0, True, 0)),
    ({"type": "worker", "index": 1}, ("worker", 1, False, 2)),
    ({"type": "ps", "index": 0}, ("ps", 0, False, 3)),
])
def test_run_config_exposes_the_tf_config_task(monkeypatch, task, expected):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": CLUSTER, "task": task}))
    config = tpu.RunConfig()
    assert (config.task_type, config.task_id, config.is_chief,
            config.global_id_in_cluster) == expected
    assert config.num_worker_replicas == 3 and config.num_ps_replicas == 1
    assert config.cluster_spec.as_dict() == CLUSTER


def test_an_evaluator_is_outside_the_training_cluster(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": CLUSTER, "task": {"type": "evaluator", "index": 0}}))
    config = tpu.RunConfig()
    assert (config.task_type, config.is_chief, config.num_worker_replicas,
            config.num_ps_replicas, config.global_id_in_cluster) == ("evaluator", False, 0, 0, None)
    assert config.cluster_spec.as_dict() == {}


def test_worker_zero_is_chief_without_a_chief_job_and_no_tf_config_is_local(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 0}}))
    assert tpu.RunConfig().is_chief and tpu.RunConfig().num_worker_replicas == 2
    monkeypatch.delenv("TF_CONFIG")
    config = tpu.RunConfig()
    assert (config.task_type, config.task_id, config.is_chief, config.num_worker_replicas) == (
        "worker", 0, True, 1)


@pytest.mark.parametrize("tf_config, message", [
    ("{not json", r"TF_CONFIG is not valid JSON .*Set it to e.g."),
    (json.dumps({"cluster": {"worker": ["a:1"]}}), r'has a "cluster" but no "task".*add the '
                                                   r"task this process runs"),
    (json.dumps({"cluster": {"worker": ["a:1"]}, "task": {"type": "worker", "index": 3}}),
     r"task worker:3 is not in the cluster \(job 'worker' has 1 task\(s\)\); fix the task index"),
])
def test_malformed_tf_config_names_the_value_and_the_fix(monkeypatch, tf_config, message):
    monkeypatch.setenv("TF_CONFIG", tf_config)
    with pytest.raises(ValueError, match=message):
        tpu.RunConfig()


def test_parameter_servers_and_evaluators_cannot_train():
    with pytest.raises(ValueError, match=r"lists 1 ps task\(s\).*Remove the 'ps' job"):
        cluster.check_can_train(cluster.from_tf_config(
            {"cluster": CLUSTER, "task": {"type": "worker", "index": 0}}))
    evaluator = cluster.from_tf_config({"cluster": {"worker": ["a:1", "b:2"]},
                                        "task": {"type": "evaluator", "index": 0}})
    with pytest.raises(ValueError, match=r"task evaluator:0; only chief/worker tasks train"):
        cluster.check_can_train(evaluator)


# ---- the same TF_CONFIGs in TF 1.15's RunConfig ------------------------------------------------

ORACLE_PROGRAM = """
import json, os, sys
import tensorflow as tf
out = []
for tf_config in json.loads(sys.argv[1]):
    os.environ["TF_CONFIG"] = json.dumps(tf_config)
    config = tf.contrib.tpu.RunConfig()
    out.append([config.task_type, config.task_id, config.is_chief, config.num_worker_replicas,
                config.num_ps_replicas, config.global_id_in_cluster,
                config.cluster_spec.as_dict()])
print(json.dumps({"configs": out}))
"""

TF_CONFIGS = [
    {"cluster": CLUSTER, "task": {"type": task, "index": index}}
    for task, index in (("chief", 0), ("worker", 0), ("worker", 1), ("ps", 0), ("evaluator", 0))
] + [
    {"cluster": {"master": ["m:1"], "worker": ["w:1", "w:2"]}, "task": {"type": "master", "index": 0}},
    {"cluster": {"master": ["m:1"], "worker": ["w:1", "w:2"]}, "task": {"type": "worker", "index": 1}},
    {"cluster": {"chief": ["c:1"], "worker": ["w:1"], "extra": ["e:1"]},
     "task": {"type": "worker", "index": 0}},
]


@pytest.mark.oracle
def test_cluster_properties_equal_tf115s_run_config(tmp_path, monkeypatch):
    script = tmp_path / "run_config.py"
    script.write_text(ORACLE_PROGRAM)
    expected = run_json(oracle_python("tf115"), script, json.dumps(TF_CONFIGS))["configs"]
    ours = []
    for tf_config in TF_CONFIGS:
        monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
        config = tpu.RunConfig()
        ours.append([config.task_type, config.task_id, config.is_chief,
                     config.num_worker_replicas, config.num_ps_replicas,
                     config.global_id_in_cluster, config.cluster_spec.as_dict()])
    assert ours == expected
