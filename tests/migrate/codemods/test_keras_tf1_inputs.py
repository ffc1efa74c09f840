"""KerasTF1Inputs: predict / evaluate / *_on_batch(x, ...) of TF 1.x Keras files feed a 1-D x as TF 1.x did."""

import textwrap

import pytest

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasTF1Inputs"


def test_model_methods_that_take_x_go_through_the_tf1_helpers():
    """tensorflow/tpu @ 45cf8b3 models/experimental/keras_colab/shakespeare_lstm.py:
    `prediction_model.predict(last_word)` with a (5,) array for a (5, 1) input. An Estimator's
    predict/evaluate (an `input_fn`), a class's own method, star arguments and calls without x are left."""
    assert_codemod(NAME, """
        import tensorflow as tf

        next_probits = prediction_model.predict(last_word)[:, 0, :]
        model.evaluate(x_test, y_test, verbose=0)
        model.train_on_batch(x=x, y=y)
        model.test_on_batch(x, y)
        model.predict_on_batch(x)
        estimator.predict(input_fn=predict_input_fn)
        estimator.evaluate(eval_input_fn, steps=10)
        tf.keras.Model.predict(model, x)
        model.predict(*arrays)
        model.evaluate()
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_tf1_inputs

        next_probits = estimator_bridge.compat.keras_tf1_inputs.predict_tf1(prediction_model, last_word)[:, 0, :]
        estimator_bridge.compat.keras_tf1_inputs.evaluate_tf1(model, x_test, y_test, verbose=0)
        estimator_bridge.compat.keras_tf1_inputs.train_on_batch_tf1(model, x=x, y=y)
        estimator_bridge.compat.keras_tf1_inputs.test_on_batch_tf1(model, x, y)
        estimator_bridge.compat.keras_tf1_inputs.predict_on_batch_tf1(model, x)
        estimator.predict(input_fn=predict_input_fn)
        estimator.evaluate(eval_input_fn, steps=10)
        tf.keras.Model.predict(model, x)
        model.predict(*arrays)
        model.evaluate()
        """)


def test_a_file_without_keras_is_left():
    """A TF1 file that never names Keras: its `predict` is an Estimator's or another library's."""
    assert_unchanged(NAME, """
        import tensorflow as tf

        predictions = classifier.predict(x)
        """)


def test_the_keras_3_rewrite_of_the_same_call_is_kept_and_the_result_is_a_fixed_point():
    """`predict_generator` becomes `predict` (KerasRemovedMethods) and then goes through the helper in
    the same pass, so a second run of the codemod changes nothing."""
    source = ("import tensorflow as tf\nmodel = tf.keras.Model()\n"
              "model.predict_generator(gen, 5)\nmodel.predict(x, steps=n / 8)\n")
    once, _ = migrate_text(source, "a.py")
    assert "keras_tf1_inputs.predict_tf1(model, gen, steps=5, verbose=0)" in once
    assert "keras_tf1_inputs.predict_tf1(model, x, steps=estimator_bridge.compat.keras_weights.steps(n / 8))" in once
    assert migrate_text(once, "a.py")[0] == once


def test_files_written_against_tf2_keep_keras_meaning():
    source = ("import tensorflow as tf\nprint(tf.config.list_logical_devices('TPU'))\n"
              "model = tf.keras.Model()\nmodel.predict(x)\n")
    assert "predict_tf1" not in migrate_text(source, "tf2.py")[0]


@pytest.mark.parametrize("keras", ["3", "2"])
def test_a_tpu_models_dataset_function_is_left_to_the_keras_to_tpu_model_rewrite(keras, monkeypatch):
    """training-data-analyst 07_Keras_Flowers_TPU_squeezenet (2019) shape, as
    tests/migrate/programs/keras_tpu_dataset_function.py: `tpu_model.evaluate(get_validation_dataset,
    ...)` on a keras_to_tpu_model model. KerasToTPUStrategy feeds that x through tpu_model_input in
    its statement rewrite, which runs after the call rewrites: wrapped into evaluate_tf1 first, the
    call was no `tpu_model.evaluate(` any more and Keras 3 got the function ("Unrecognized data
    type"). Arrays given with y on the same model, and a model of another function, still get TF 1.x's
    rank-1 inputs; migrating the output again leaves these calls as they are."""
    monkeypatch.setenv(ENVIRONMENT, keras)
    source = textwrap.dedent("""\
        import tensorflow as tf

        def train(model, tpu, get_validation_dataset, x_test, y_test):
          if tpu:
            tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=tf.contrib.tpu.TPUDistributionStrategy(tpu))
          if tpu:
            loss = tpu_model.evaluate(get_validation_dataset, steps=2, verbose=0)
            tpu_model.evaluate(x=get_validation_dataset, steps=2)
            tpu_model.evaluate(x_test, y_test)
          return tpu_model.predict(x_test)

        def elsewhere(tpu_model, data):
          return tpu_model.evaluate(data)
        """)
    once, _ = migrate_text(source, "a.py")
    helper = "estimator_bridge.compat.keras_tpu.tpu_model_input(get_validation_dataset, tpu_model)"
    assert f"loss = tpu_model.evaluate({helper}, steps=2, verbose=0)" in once
    assert f"tpu_model.evaluate(x={helper}, steps=2)" in once
    assert "keras_tf1_inputs.evaluate_tf1(tpu_model, x_test, y_test)" in once
    assert "keras_tf1_inputs.predict_tf1(tpu_model, x_test)" in once
    assert "keras_tf1_inputs.evaluate_tf1(tpu_model, data)" in once
    calls = [line for line in once.splitlines() if "evaluate" in line or "predict" in line]
    twice = migrate_text(once, "a.py")[0]
    assert [line for line in twice.splitlines() if "evaluate" in line or "predict" in line] == calls
