"""model_to_estimator and contrib.learn's Experiment/learn_runner under the compat runner: no faithful
run exists (the bridge has neither), so using them fails at the line, naming the exact replacement.

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


def test_model_to_estimator_names_the_keras_calls_that_replace_it(tf):
    with pytest.raises(UnsupportedName) as raised:
        tf.keras.estimator.model_to_estimator
    message = str(raised.value)
    assert "tf.keras.estimator.model_to_estimator is not available" in message
    for replacement in ("model.fit(input_fn(), steps_per_epoch=N, epochs=1)",
                        "model.evaluate(input_fn(), steps=M, return_dict=True)", "model.predict(input_fn())",
                        "TPUStrategy(resolver).scope()", "the estimator's was the mean of the batch losses"):
        assert replacement in message


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
