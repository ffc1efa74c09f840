"""SessionNeedsGraphMode: `tf.Session()` in a file that never leaves eager mode is reported (MIG211).

TF 1.x scripts built graphs by default; after the rename they run eagerly and `session.run` fails
at run time (training-data-analyst's 2018 `dataset_to_numpy_util`: "The Session graph is empty").
Before, the codemod renamed the Session and said nothing."""

from tests.migrate.codemods.support import assert_unchanged

NAME = "SessionNeedsGraphMode"


def test_a_session_in_an_eager_program_is_reported_in_every_spelling():
    assert_unchanged(NAME, """
        import tensorflow as tf
        from tensorflow import Session

        def dataset_to_numpy(dataset, n):
          batch = dataset.batch(n).make_one_shot_iterator().get_next()
          with tf.Session() as ses:
            return ses.run(batch)

        a = tf.compat.v1.Session()
        b = tf.InteractiveSession()
        c = Session(config=None)
        """, findings=["6:8 MIG211", "9:5 MIG211", "10:5 MIG211", "11:5 MIG211"])


def test_a_file_that_chooses_graph_mode_or_a_session_with_its_graph_is_not_reported():
    for source in ("""
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        s = tf.Session()
        """, """
        import tensorflow as tf
        with tf.Graph().as_default() as graph:
          s = tf.Session()
        """, """
        import tensorflow as tf
        s = tf.Session(graph=tf.Graph())
        t = tf.Session('', tf.Graph())
        """, """
        import tensorflow as tf
        if tf.executing_eagerly():
          values = batch.numpy()
        else:
          with tf.Session() as ses:
            values = ses.run(batch)
        """):
        assert_unchanged(NAME, source)
