"""A removed tf.contrib name inside `try:` guarded by `except AttributeError` is reported with what
actually happens on TF 2: the lookup raises and the fallback runs (tensorflow/adanet @ 2b61263
adanet/core/summary.py monkey-patches `tf_v1.contrib.summary` in such a try; the warning used to
read as if the module would crash)."""

import textwrap

from migrate.codemods.findings_collector import GUARDED_NOTE
from migrate.engine import migrate_text


def _messages(source):
    _, findings = migrate_text(textwrap.dedent(source), "guarded.py")
    return {(f.location.line, f.code): f.message for f in findings}


def test_contrib_lookup_in_a_try_that_catches_attribute_error_says_the_fallback_runs():
    messages = _messages("""
        import tensorflow as tf

        def patch(wrapper):
          try:
            setattr(tf.contrib.summary, "scalar", wrapper)
          except (AttributeError, ImportError):
            setattr(tf.summary, "scalar", wrapper)
          try:
            cell = tf.contrib.rnn.LayerNormBasicLSTMCell(4)
          except Exception:
            cell = None
          return tf.contrib.rnn.LayerNormBasicLSTMCell(8), cell
        """)
    assert messages[(6, "MIG301")].endswith(GUARDED_NOTE)
    assert messages[(10, "MIG301")].endswith(GUARDED_NOTE)
    assert not messages[(13, "MIG301")].endswith(GUARDED_NOTE)


def test_handlers_that_do_not_catch_attribute_error_or_re_raise_are_not_guards():
    messages = _messages("""
        import tensorflow as tf

        try:
          a = tf.contrib.rnn.LayerNormBasicLSTMCell(4)
        except ImportError:
          a = None
        try:
          b = tf.contrib.rnn.LayerNormBasicLSTMCell(4)
        except AttributeError:
          raise RuntimeError("needs TF 1.x")
        """)
    assert messages[(5, "MIG301")] == messages[(9, "MIG301")]
    assert not messages[(5, "MIG301")].endswith(GUARDED_NOTE)
