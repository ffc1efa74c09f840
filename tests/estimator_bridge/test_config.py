"""RunConfig / TPUConfig: TF 1.15's fields and defaults, validated and parsed once at birth."""

from __future__ import annotations

import pytest

import estimator_bridge as tpu
from estimator_bridge.config import TIME_BASED_LOOP_STEPS, IterationsPerLoop


@pytest.mark.parametrize("value, parsed, steps", [
    (2, IterationsPerLoop(2, "count"), 2),
    ("100", IterationsPerLoop(100, "count"), 100),
    ("30s", IterationsPerLoop(30, "seconds"), TIME_BASED_LOOP_STEPS),
    ("2m", IterationsPerLoop(120, "seconds"), 100),
    ("1h", IterationsPerLoop(3600, "seconds"), 100),
])
def test_iterations_per_loop_is_parsed_at_construction(value, parsed, steps):
    config = tpu.TPUConfig(iterations_per_loop=value)
    assert config.iterations_per_loop == value  # the field keeps what the user wrote
    assert config.iterations == parsed
    assert config.iterations.steps_per_loop == steps
    assert "iterations" in vars(config)  # parsed by the constructor, not on first read


@pytest.mark.parametrize("value", [0, -1, "10x", "1.5", "s", None])
def test_invalid_iterations_per_loop_fails_at_construction(value):
    with pytest.raises(ValueError, match="Invalid TPUConfig `iterations_per_loop` value"):
        tpu.TPUConfig(iterations_per_loop=value)


def test_tpu_config_is_a_frozen_value_like_tf1s():
    config = tpu.TPUConfig(iterations_per_loop=10, num_shards=8)
    with pytest.raises(AttributeError):
        config.num_shards = 2
    replaced = config._replace(iterations_per_loop="30s")
    assert replaced.iterations == IterationsPerLoop(30, "seconds")
    assert config == tpu.TPUConfig(iterations_per_loop=10, num_shards=8)


@pytest.mark.parametrize("kwargs, message", [
    ({"num_shards": 0}, r"`num_shards` \(0\) must be a positive integer"),
    ({"num_cores_per_replica": 3}, r"`num_cores_per_replica` \(3\) must be one of"),
    ({"per_host_input_for_training": 7}, r"`per_host_input_for_training` \(7\) must be True"),
])
def test_tpu_config_fields_are_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tpu.TPUConfig(**kwargs)


def test_run_config_defaults_are_tf1s():
    config = tpu.RunConfig()
    assert (config.save_checkpoints_steps, config.save_checkpoints_secs) == (None, 600)
    assert (config.save_summary_steps, config.keep_checkpoint_max,
            config.log_step_count_steps) == (100, 5, 100)
    assert config.tpu_config == tpu.TPUConfig()
    assert config.tpu_config.iterations == IterationsPerLoop(2, "count")
    assert (config.is_chief, config.num_worker_replicas, config.task_type) == (True, 1, "worker")


def test_run_config_is_changed_only_through_replace():
    config = tpu.RunConfig(save_checkpoints_steps=10)
    with pytest.raises(AttributeError):
        config.model_dir = "/elsewhere"
    # The private fields behind the properties are frozen too: a TF1 program that poked
    # `config._model_dir` is told how to change it instead of changing a value the
    # estimator already read.
    with pytest.raises(AttributeError, match=r"RunConfig is frozen: cannot set '_model_dir'.*"
                                             r"config.replace\(model_dir=...\)"):
        config._model_dir = "/elsewhere"
    assert config.model_dir is None
    replaced = config.replace(save_checkpoints_secs=30)
    assert (replaced.save_checkpoints_steps, replaced.save_checkpoints_secs) == (None, 30)
    assert (config.save_checkpoints_steps, config.save_checkpoints_secs) == (10, None)
    with pytest.raises(ValueError, match=r"unknown fields \['bogus'\]"):
        config.replace(bogus=1)


@pytest.mark.parametrize("kwargs, message", [
    ({"save_checkpoints_steps": 10, "save_checkpoints_secs": 10},
     "Can not provide both save_checkpoints_steps and save_checkpoints_secs"),
    ({"master": "grpc://a:1", "cluster": object()}, "Both master and cluster are set"),
    ({"tpu_config": {"iterations_per_loop": 2}}, "`tpu_config` must be a TPUConfig"),
    ({"keep_checkpoint_max": -1}, r"`keep_checkpoint_max` \(-1\) must be None or a number"),
])
def test_run_config_conflicts_are_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tpu.RunConfig(**kwargs)
