"""Keras 2's global learning phase on Keras 3 (estimator_bridge/compat/keras_backend.py)."""

import logging

import pytest

from estimator_bridge.compat import keras_backend


@pytest.fixture(autouse=True)
def fresh_phase():
    keras_backend._state.update(phase=None, warned=False)
    yield
    keras_backend._state.update(phase=None, warned=False)


def test_the_phase_is_recorded_and_read_back_with_tf1s_default(caplog):
    assert keras_backend.learning_phase() == 0
    with caplog.at_level(logging.WARNING, logger="estimator_bridge"):
        keras_backend.set_learning_phase(True)
        keras_backend.set_learning_phase(1)
    assert keras_backend.learning_phase() == 1
    warnings = [r.getMessage() for r in caplog.records if "learning phase" in r.getMessage()]
    assert len(warnings) == 1 and "training=" in warnings[0]


def test_only_0_and_1_as_tf1_checked():
    with pytest.raises(ValueError, match="Expected learning phase to be 0 or 1"):
        keras_backend.set_learning_phase(2)


def test_the_runner_serves_tf115s_private_global_step_reader():
    """`from tensorflow.python.estimator import estimator; estimator._load_global_step_from_checkpoint_dir`
    (tensorflow/tpu EfficientNet, ResNet, MnasNet)."""
    from estimator_bridge.compat.contrib_helpers import load_global_step_from_checkpoint_dir
    from estimator_bridge.compat.namespace import alias_module

    module = alias_module("tensorflow_estimator.python.estimator.estimator")
    assert module._load_global_step_from_checkpoint_dir is load_global_step_from_checkpoint_dir
