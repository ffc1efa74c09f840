"""Module aliases: `summary = tf.contrib.summary`, then `summary.scalar(...)` (compare_gan's
tpu_summaries.py). Uses through such a name are rewritten or reported as the direct spelling
would be; the assignment goes when every use was rewritten (nothing reads it any more), and
stays, reported, otherwise. Fixture: fixtures/contrib/module_alias."""

import textwrap

from migrate.engine import migrate_text


def _migrate(source: str) -> tuple[str, list[str]]:
    source = textwrap.dedent(source).removeprefix("\n")
    first, findings = migrate_text(source, "<test>", verify=True)
    second, _ = migrate_text(first, "<test>")
    assert second == first
    return first, [f"{f.location.line}:{f.location.column + 1} {f.code}" for f in findings]


def _source(text: str) -> str:
    return textwrap.dedent(text).removeprefix("\n")


def test_every_use_rewritten_removes_the_alias_and_its_finding():
    output, findings = _migrate("""
        import tensorflow as tf

        summary = tf.contrib.summary

        def host_call(step, loss):
          with summary.create_file_writer("/tmp/x").as_default():
            summary.scalar("loss", loss, step=step)
            return summary.all_summary_ops()
        """)
    assert output == _source("""
        import tensorflow as tf


        def host_call(step, loss):
          with tf.summary.create_file_writer("/tmp/x").as_default():
            tf.compat.v2.summary.scalar("loss", loss, step=step)
            return tf.compat.v1.summary.all_v2_summary_ops()
        """)
    assert findings == []


def test_an_alias_of_an_imported_contrib_module_goes_with_its_import():
    output, findings = _migrate("""
        from tensorflow.contrib import summary as contrib_summary

        summary = contrib_summary

        def host_call(step, loss):
          summary.scalar("loss", loss, step=step)
        """)
    assert output == _source("""
        import tensorflow as tf


        def host_call(step, loss):
          tf.compat.v2.summary.scalar("loss", loss, step=step)
        """)
    assert findings == []


def test_a_use_left_keeps_the_alias_and_every_site_is_reported_like_a_direct_use():
    output, findings = _migrate("""
        import tensorflow as tf

        summary = tf.contrib.summary
        rnn = tf.contrib.rnn

        def f(x, step):
          summary.scalar("a", x, step=step)
          summary.scalar("b", x, "family")
          return rnn.LayerNormBasicLSTMCell(3), summary.generic("c", x)
        """)
    assert output == _source("""
        import tensorflow as tf

        summary = tf.contrib.summary
        rnn = tf.contrib.rnn

        def f(x, step):
          tf.compat.v2.summary.scalar("a", x, step=step)
          summary.scalar("b", x, "family")
          return rnn.LayerNormBasicLSTMCell(3), summary.generic("c", x)
        """)
    # the assignments (MIG301), `family` (MIG201), LayerNormBasicLSTMCell and generic (MIG301) (LSTMCell and LSTMBlockCell are rewritten:
    # estimator_bridge.compat.rnn_cell)
    assert findings == ["3:11 MIG301", "4:7 MIG301", "8:3 MIG201", "9:10 MIG301", "9:41 MIG301"]


def test_an_alias_of_a_module_with_a_current_home_follows_it():
    # contrib's nest is tf.nest but for is_sequence (TF 2: is_nested): through the alias too.
    output, findings = _migrate("""
        import tensorflow as tf

        nest = tf.contrib.framework.nest

        def f(x):
          return nest.is_sequence(x), nest.flatten(x)
        """)
    assert output == _source("""
        import tensorflow as tf

        nest = tf.nest

        def f(x):
          return tf.nest.is_nested(x), nest.flatten(x)
        """)
    assert findings == []


def test_a_bare_use_keeps_the_alias():
    output, findings = _migrate("""
        import tensorflow as tf

        summary = tf.contrib.summary

        def f(x, step):
          summary.scalar("a", x, step=step)
          return summary
        """)
    assert output == _source("""
        import tensorflow as tf

        summary = tf.contrib.summary

        def f(x, step):
          tf.compat.v2.summary.scalar("a", x, step=step)
          return summary
        """)
    # the bare read is a use left as written: reported where it is, as well as the alias it keeps
    assert findings == ["3:11 MIG301", "7:10 MIG301"]


def test_names_bound_twice_or_in_a_class_body_are_not_followed():
    source = """
        import tensorflow as tf

        rnn = tf.contrib.rnn
        if tf.test.is_gpu_available():
          rnn = tf.contrib.cudnn_rnn

        class Model(object):
          rnn = tf.contrib.rnn
          def cell(self):
            return self.rnn.LSTMCell(3)

        def f():
          return rnn.LSTMCell(3)
        """
    output, findings = _migrate(source)
    assert output.replace("tf.compat.v1.test.is_gpu_available", "tf.test.is_gpu_available") == _source(source)
    assert findings == ["3:7 MIG301", "5:9 MIG301", "8:9 MIG301"]


def test_a_function_local_alias_left_alone_in_its_block_becomes_pass():
    output, findings = _migrate("""
        import tensorflow as tf

        def f(loss, step):
          if loss is not None:
            # summaries
            summary = tf.contrib.summary
          summary.scalar("loss", loss, step=step)
        """)
    assert output == _source("""
        import tensorflow as tf

        def f(loss, step):
          if loss is not None:
            # summaries
            pass
          tf.compat.v2.summary.scalar("loss", loss, step=step)
        """)
    assert findings == []
