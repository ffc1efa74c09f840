"""SummaryCadenceToRecordIf: `record_summaries_every_n_global_steps(n)` -> `tf.summary.record_if(...)`."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "SummaryCadenceToRecordIf"


def test_cadence_becomes_a_record_if_condition_on_the_global_step():
    assert_codemod(NAME, """
        import tensorflow as tf

        with tf.contrib.summary.record_summaries_every_n_global_steps(100):
            pass
        """, """
        import tensorflow as tf

        with tf.summary.record_if(lambda: tf.math.equal(tf.compat.v1.train.get_or_create_global_step() % 100, 0)):
            pass
        """)


def test_arguments_that_cannot_be_read_statically_leave_the_call():
    assert_unchanged(NAME, """
        import tensorflow as tf

        with tf.contrib.summary.record_summaries_every_n_global_steps(*args):
            pass
        """)
