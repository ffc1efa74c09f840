"""tf.contrib helpers TensorFlow has no equivalent for (HParams, the exact l2_regularizer and
variance_scaling_initializer) migrate to estimator_bridge's own implementations with TF 1.15's arithmetic."""

import numpy as np

from migrate.engine import migrate_text


CONTRIB_WITHOUT_TF_EQUIVALENT = '''import tensorflow as tf
from tensorflow.contrib.training import HParams


def build(weights):
  hparams = HParams(learning_rate=0.1, layers=[64, 32]).parse("learning_rate=0.5,layers=[8]")
  regularizer = tf.contrib.layers.l2_regularizer(1e-4)
  init = tf.contrib.layers.variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=True, seed=3)
  return hparams, regularizer(weights), tf.get_variable("w", [4, 3], initializer=init)
'''


def test_contrib_helpers_without_tf_equivalent_become_the_bridges_tf_1_15_reimplementations():
    """HParams, l2_regularizer, variance_scaling_initializer: rewritten (no finding) to
    estimator_bridge.compat.contrib_helpers, whose numbers tests/estimator_bridge/
    test_compat_contrib.py holds to TF 1.15's; here: the migrated code runs on TF 2."""
    import tensorflow as tf

    migrated, findings = migrate_text(CONTRIB_WITHOUT_TF_EQUIVALENT)
    assert findings == [] and "contrib" not in migrated.replace("contrib_helpers", "")
    namespace = {}
    exec(compile(migrated, "migrated.py", "exec"), namespace)
    with tf.Graph().as_default():
        weights = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
        hparams, loss, variable = namespace["build"](weights)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            loss_value, l2_loss, initial = session.run([loss, 1e-4 * tf.nn.l2_loss(weights), variable])
    assert (hparams.learning_rate, hparams.layers) == (0.5, [8])
    assert loss_value == l2_loss
    assert np.all(np.abs(initial) <= np.sqrt(3.0 / 3.5)) and np.any(initial != 0)
