"""KerasRemovedMethods: Keras 2 spellings Keras 3 refuses, in Kaggle TPU notebooks of TF 2.2-2.4."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasRemovedMethods"


def test_the_steps_per_execution_spellings_of_tf2_era_become_keras_3s():
    # Keras 3's compile has no **kwargs: experimental_steps_per_execution raised TypeError.
    assert_codemod(NAME, """
        import tensorflow as tf

        with strategy.scope():
            model.compile(optimizer="adam", loss="mse", experimental_steps_per_execution=32)
            other.compile("sgd", "mse", steps_per_run=8)
        """, """
        import tensorflow as tf

        with strategy.scope():
            model.compile(optimizer="adam", loss="mse", steps_per_execution=32)
            other.compile("sgd", "mse", steps_per_execution=8)
        """)


def test_model_checkpoints_io_device_option_is_dropped_with_an_info_finding():
    assert_codemod(NAME, """
        import tensorflow as tf

        save_locally = tf.saved_model.SaveOptions(experimental_io_device="/job:localhost")
        checkpoint = tf.keras.callbacks.ModelCheckpoint(
            "model.keras", monitor="val_loss", save_best_only=True, options=save_locally)
        """, """
        import tensorflow as tf

        save_locally = tf.saved_model.SaveOptions(experimental_io_device="/job:localhost")
        checkpoint = tf.keras.callbacks.ModelCheckpoint(
            "model.keras", monitor="val_loss", save_best_only=True)
        """, findings=["4:14 MIG208"])


def test_both_spellings_at_once_and_compile_of_tensorflow_modules_are_left_alone():
    assert_unchanged(NAME, """
        import tensorflow as tf

        model.compile(steps_per_execution=4, experimental_steps_per_execution=8)
        tf.compile(experimental_steps_per_execution=8)
        saver.save(path, options=options)
        """)


def test_reset_states_becomes_the_helper_that_decides_at_run_time():
    """tensorflow/tpu tools/colab/shakespeare_with_tpu_and_keras.ipynb @ f4610ce primed its stateful
    model with `prediction_model.reset_states()`: Keras 3 models have no such method (AttributeError
    after the MIG207 report this was before). Calls on TensorFlow modules are not touched."""
    assert_codemod(NAME, """
        import tensorflow as tf

        prediction_model.reset_states()
        metrics["acc"].reset_states()
        tf.keras.backend.reset_states()
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        estimator_bridge.compat.keras_methods.reset_states(prediction_model)
        estimator_bridge.compat.keras_methods.reset_states(metrics["acc"])
        tf.keras.backend.reset_states()
        """)
