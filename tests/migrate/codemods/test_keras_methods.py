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


def test_validation_with_steps_under_a_strategy_is_restarted_each_epoch_as_keras_2_did():
    """GoogleCloudPlatform/training-data-analyst @ 715bafff7 01_MNIST_TPU_Keras.ipynb: validation set
    `batch(10000)` with `validation_steps=1` under the notebook's MirroredStrategy fallback raised
    StopIteration at epoch 2 on Keras 3. Only in files that may use a strategy; wrapped once;
    fit_generator's validation too; a fit without validation_steps is left alone."""
    assert_codemod(NAME, """
        import tensorflow as tf

        strategy = tf.distribute.get_strategy()
        model.fit(train, epochs=3, validation_data=valid, validation_steps=1)
        model.fit(train, epochs=3, validation_data=valid)
        model.fit_generator(gen, 10, 2, validation_data=val_gen(), validation_steps=3)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        strategy = tf.distribute.get_strategy()
        model.fit(train, epochs=3, validation_data=estimator_bridge.compat.keras_methods.restarted_each_epoch(valid), validation_steps=1)
        model.fit(train, epochs=3, validation_data=valid)
        model.fit(gen, steps_per_epoch=10, epochs=2, validation_data=estimator_bridge.compat.keras_methods.restarted_each_epoch(val_gen()), validation_steps=3)
        """)


def test_validation_steps_without_any_strategy_in_the_file_is_left_alone():
    assert_unchanged(NAME, """
        import tensorflow as tf

        model.fit(train, epochs=3, validation_data=valid, validation_steps=1)
        """)
