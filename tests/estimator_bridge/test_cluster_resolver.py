"""estimator_bridge.TPUClusterResolver: TF 1.15's reading of the TPU name (live comparison with
the oracle in test_real_patterns.py)."""

import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.runtime import distribute


@pytest.mark.parametrize("name", ["", b"", [""]])
def test_an_empty_name_is_the_local_session(name):
    resolver = tpu.TPUClusterResolver(name, zone=None, project=None)
    assert resolver.local_session
    assert resolver.master() == "" and resolver.get_master() == ""
    assert resolver.cluster_spec() is None  # TF 1.15 printed None
    assert resolver.environment == "google"
    assert resolver.num_accelerators() == {"TPU": 0}
    assert isinstance(resolver, tf.distribute.cluster_resolver.TPUClusterResolver)


def test_other_names_are_tf_s_class_unchanged():
    resolver = tpu.TPUClusterResolver("local")  # a TPU VM's directly attached TPU in TF 2
    assert not resolver.local_session
    assert resolver.cluster_spec() == tf.train.ClusterSpec({})


def test_no_name_without_tpu_name_in_the_environment_says_how_to_run_locally(monkeypatch):
    monkeypatch.delenv("TPU_NAME", raising=False)
    with pytest.raises(ValueError, match=r"Please provide a TPU Name.*pass tpu=''"):
        tpu.TPUClusterResolver(None)


@pytest.mark.parametrize("tpu_list,error", [([], ValueError), (["a", "b"], NotImplementedError)])
def test_lists_are_checked_as_in_tf115(tpu_list, error):
    with pytest.raises(error):
        tpu.TPUClusterResolver(tpu_list)


@pytest.mark.parametrize("use_tpu,description", [(False, "one device"),
                                                 (True, "1 emulated TPU core")])
def test_a_local_session_resolver_names_no_tpu(use_tpu, description):
    config = tpu.RunConfig(cluster=tpu.TPUClusterResolver(""))
    deployment = distribute.choose_deployment(config, use_tpu=use_tpu)
    assert deployment.description.startswith(description)
