"""NumpyInputFn: numpy_input_fn calls whose batches tf.data repeats exactly become the bridge's.

Meteorix/bert's run_squad.py (seventh held-out draw) predicted through
`tf.estimator.inputs.numpy_input_fn(x, y=None, batch_size=..., num_epochs=1, shuffle=False)`: MIG304,
though the batches are deterministic. estimator_bridge.inputs.numpy_input_fn gives TF 1.15's
batches (oracle test tests/estimator_bridge/test_numpy_input_fn.py). `shuffle=True` on one thread
(tarrade's tf_estimator_cnn.py, heldout9; the 2019 training-data-analyst MNIST trainer) is served
too: the bridge shuffles as TF 1.15's feeder and queue did (the same oracle test). A shuffle held in
a variable or several threads keep the finding.
"""

import pytest

from tests.migrate.codemods.support import assert_codemod, run

NAME = "NumpyInputFn"


def test_a_call_without_shuffling_becomes_the_bridges():
    assert_codemod(NAME, """
        import tensorflow as tf
        predict_input_fn = tf.estimator.inputs.numpy_input_fn(
            x, y=None, batch_size=8, num_epochs=1, shuffle=False)
        """, """
        import tensorflow as tf
        import estimator_bridge

        predict_input_fn = estimator_bridge.inputs.numpy_input_fn(
            x, y=None, batch_size=8, num_epochs=1, shuffle=False)
        """)


def test_compat_v1_spelling_positional_shuffle_and_one_thread():
    assert_codemod(NAME, """
        import tensorflow as tf
        a = tf.compat.v1.estimator.inputs.numpy_input_fn({"x": x}, y, 32, None, False)
        b = tf.compat.v1.estimator.inputs.numpy_input_fn(x, shuffle=False, num_threads=1)
        """, """
        import tensorflow as tf
        import estimator_bridge

        a = estimator_bridge.inputs.numpy_input_fn({"x": x}, y, 32, None, False)
        b = estimator_bridge.inputs.numpy_input_fn(x, shuffle=False, num_threads=1)
        """)


def test_a_shuffled_call_on_one_thread_becomes_the_bridges():
    assert_codemod(NAME, """
        import tensorflow as tf
        train_input_fn = tf.compat.v1.estimator.inputs.numpy_input_fn(
            x={"x": train_data}, y=train_labels, batch_size=100, num_epochs=None, shuffle=True)
        """, """
        import tensorflow as tf
        import estimator_bridge

        train_input_fn = estimator_bridge.inputs.numpy_input_fn(
            x={"x": train_data}, y=train_labels, batch_size=100, num_epochs=None, shuffle=True)
        """)


@pytest.mark.parametrize("arguments", ["x, y, shuffle=True, num_threads=2", "x, y, shuffle=flag", "x, y",
                                       "x, shuffle=False, num_threads=4", "*args, shuffle=False"])
def test_calls_whose_order_was_the_queues_are_left_for_the_finding(arguments):
    source = f"import tensorflow as tf\nf = tf.estimator.inputs.numpy_input_fn({arguments})\n"
    output, _ = run(NAME, source)
    assert output == source
