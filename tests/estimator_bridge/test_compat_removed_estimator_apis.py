"""contrib.learn's Experiment/learn_runner under the compat runner: no faithful run exists (the bridge
has neither), so using them fails at the line, naming the exact replacement. (model_to_estimator,
once in the same position, is the bridge's now.)

Found on real programs: tf.keras.estimator.model_to_estimator(keras_model=...) followed by
estimator.train/evaluate (Keras-to-Estimator tutorials and TPU-era scripts), and tensor2tensor-style
learn_runner.run(experiment_fn, ...) code. Before, the first raised a bare AttributeError ("module
'tensorflow.keras' has no attribute 'estimator'") and the others said only "replaced by tf.estimator".
"""

import pytest

from estimator_bridge.compat.namespace import UnsupportedName, tf1_namespace


@pytest.fixture(scope="module")
def tf():
    return tf1_namespace()


def test_model_to_estimator_is_the_bridges_and_other_keras_estimator_names_say_so(tf):
    """model_to_estimator now runs (estimator_bridge/keras_estimator.py, oracle tests in
    test_model_to_estimator.py); another tf.keras.estimator name says what the module has."""
    import estimator_bridge

    assert tf.keras.estimator.model_to_estimator is estimator_bridge.model_to_estimator
    with pytest.raises(UnsupportedName) as raised:
        tf.keras.estimator.not_a_name
    assert "tf.keras.estimator provides only model_to_estimator" in str(raised.value)


def test_experiment_names_train_and_evaluate_with_its_specs(tf):
    with pytest.raises(UnsupportedName) as raised:
        tf.contrib.learn.Experiment
    message = str(raised.value)
    assert "estimator_bridge.train_and_evaluate(estimator, estimator_bridge.TrainSpec(train_input_fn, " \
           "max_steps=T), estimator_bridge.EvalSpec(eval_input_fn, steps=E, throttle_secs=5))" in message
    assert "learn.RunConfig -> estimator_bridge.RunConfig" in message


def test_learn_runner_names_what_each_schedule_becomes(tf):
    with pytest.raises(UnsupportedName) as raised:
        tf.contrib.learn.python.learn.learn_runner.run
    message = str(raised.value)
    assert "learn_runner.run(experiment_fn" in message and "estimator_bridge.train_and_evaluate(" in message
    assert "'train': estimator.train" in message and "'evaluate': estimator.evaluate" in message
