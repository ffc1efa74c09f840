"""tf.contrib.learn.monitors.replace_monitors_with_hooks (tensor2tensor's trainer_lib passed its hooks
through it) -> estimator_bridge.compat.contrib_learn.replace_monitors_with_hooks: a hook list comes back
as TF 1.15 returned it (its SessionRunHooks, in order); a Monitor, gone with contrib.learn, is refused."""

import pytest
import tensorflow as tf

from estimator_bridge.compat.contrib_learn import replace_monitors_with_hooks
from migrate.engine import migrate_text


def test_both_spellings_are_rewritten_and_the_contrib_import_goes():
    source = ("import tensorflow as tf\n"
              "from tensorflow.contrib.learn.python.learn import monitors\n"
              "a = tf.contrib.learn.monitors.replace_monitors_with_hooks(hooks, est)\n"
              "b = monitors.replace_monitors_with_hooks(None, est)\n")
    migrated, findings = migrate_text(source)
    assert migrated.count("estimator_bridge.compat.contrib_learn.replace_monitors_with_hooks(") == 2
    assert "contrib" not in migrated.replace("contrib_learn", "") and not findings


def test_hooks_come_back_in_order_and_none_is_empty():
    hooks = [tf.compat.v1.train.StopAtStepHook(last_step=3), tf.compat.v1.train.SessionRunHook()]
    assert replace_monitors_with_hooks(hooks, None) == hooks
    assert replace_monitors_with_hooks(tuple(hooks), None) == hooks
    assert replace_monitors_with_hooks(None, None) == []


def test_a_monitor_is_refused_with_what_to_write_instead():
    class EveryN:  # a contrib.learn Monitor-like object
        run_on_all_workers = False

    with pytest.raises(TypeError, match="SessionRunHook"):
        replace_monitors_with_hooks([EveryN()], None)
