"""Experiment and learn_runner have no rewrite: the findings name the exact calls that replace them
(the same replacements the compat runner names at run time). model_to_estimator, once here, is
rewritten (tests/migrate/test_model_to_estimator_rewrite.py)."""

import pytest

from migrate.engine import migrate_text

CASES = [
    ("import tensorflow as tf\ne = tf.contrib.learn.Experiment(est, train_input_fn=a, eval_input_fn=b)\n",
     ["estimator_bridge.EvalSpec(eval_input_fn, steps=eval_steps, throttle_secs=5", "one after training"]),
    ("from tensorflow.contrib.learn.python.learn import learn_runner\nlearn_runner.run(experiment_fn, c)\n",
     ["learn_runner.run(experiment_fn, run_config, hparams=...) becomes", "'train': estimator.train"]),
]


@pytest.mark.parametrize("source, wanted", CASES, ids=["Experiment", "learn_runner"])
def test_the_finding_names_the_exact_replacement(source, wanted):
    _, findings = migrate_text(source, "trainer.py")
    hints = [f.hint for f in findings if f.location.line == 2]
    assert hints, [(f.location.line, f.code, f.message) for f in findings]
    assert all(any(text in hint for hint in hints) for text in wanted), hints
