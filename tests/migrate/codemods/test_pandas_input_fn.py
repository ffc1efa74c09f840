"""PandasInputFn: pandas_input_fn calls whose batches tf.data repeats exactly become the bridge's.

tensorflow/hub's Kaggle text-classification colab (third held-out draw) predicted through
`tf.estimator.inputs.pandas_input_fn(df, df['Sentiment'], shuffle=False)`: MIG304, though TF 1.15's
batches were those of numpy_input_fn on the frame's columns. estimator_bridge.inputs.pandas_input_fn
gives them (oracle test tests/estimator_bridge/test_pandas_input_fn.py); shuffled, unknown-shuffle
or multi-threaded calls keep the finding (their order was TF 1.15's queue's).
"""

import pytest

from tests.migrate.codemods.support import assert_codemod, run

NAME = "PandasInputFn"


def test_a_call_without_shuffling_becomes_the_bridges():
    assert_codemod(NAME, """
        import tensorflow as tf
        predict_test_input_fn = tf.estimator.inputs.pandas_input_fn(
            test_df, test_df["polarity"], shuffle=False)
        """, """
        import tensorflow as tf
        import estimator_bridge

        predict_test_input_fn = estimator_bridge.inputs.pandas_input_fn(
            test_df, test_df["polarity"], shuffle=False)
        """)


def test_compat_v1_and_contrib_learn_spellings_positional_shuffle_and_one_thread():
    assert_codemod(NAME, """
        import tensorflow as tf
        a = tf.compat.v1.estimator.inputs.pandas_input_fn(frame, None, 32, None, False)
        b = tf.contrib.learn.io.pandas_input_fn(x=frame, y=labels, shuffle=False, num_threads=1,
                                                target_column="label")
        """, """
        import tensorflow as tf
        import estimator_bridge

        a = estimator_bridge.inputs.pandas_input_fn(frame, None, 32, None, False)
        b = estimator_bridge.inputs.pandas_input_fn(x=frame, y=labels, shuffle=False, num_threads=1,
                                                target_column="label")
        """)


@pytest.mark.parametrize("arguments", ["df, y, shuffle=True", "df, y, shuffle=flag", "df, y",
                                       "df, shuffle=False, num_threads=4", "*args, shuffle=False",
                                       "df, shuffle=False, **options"])
def test_calls_whose_order_was_the_queues_are_left_for_the_finding(arguments):
    source = f"import tensorflow as tf\nf = tf.estimator.inputs.pandas_input_fn({arguments})\n"
    output, _ = run(NAME, source)
    assert output == source
