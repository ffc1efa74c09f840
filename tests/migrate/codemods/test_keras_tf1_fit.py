"""KerasTF1Fit: `fit(x, y, ...)` on arrays in TF 1.x files (steps_per_epoch without batch_size; shuffled epochs)."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasTF1Fit"


def test_fit_of_x_and_y_with_steps_and_no_batch_size_goes_through_the_tf1_helper():
    """tensorflow/tpu @ 3affd15 tools/colab/classification_iris_data_with_keras.ipynb (TF 1.14):
    TF 1.x fed the full arrays at each step, Keras 3 cuts them into batches. A batch size (keyword or
    third positional) changed nothing there but the validation batches (tensorflow/tpu @ c2ac4b9
    tools/colab/autoencoder_embeddings.ipynb: `batch_size=128, steps_per_epoch=468`), so it goes through
    the helper too, and so does a dataset or generator (one positional argument: TF 1.x stopped training
    when it ran out, tests/migrate/test_keras_steps_run_out.py). A TensorFlow module's own fit is left
    alone."""
    assert_codemod(NAME, """
        import tensorflow as tf

        model.fit(train_x.values, train_y.values, steps_per_epoch = steps_per_epoch, epochs=epochs)
        model.fit(dataset, steps_per_epoch=5, epochs=3)
        model.fit(x, y, 32, steps_per_epoch=5)
        model.fit(x, y, batch_size=8, steps_per_epoch=5)
        tf.keras.Model.fit(m, x, steps_per_epoch=3)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        estimator_bridge.compat.keras_methods.fit_tf1(model, train_x.values, train_y.values, steps_per_epoch = steps_per_epoch, epochs=epochs)
        estimator_bridge.compat.keras_methods.fit_tf1(model, dataset, steps_per_epoch=5, epochs=3)
        estimator_bridge.compat.keras_methods.fit_tf1(model, x, y, 32, steps_per_epoch=5)
        estimator_bridge.compat.keras_methods.fit_tf1(model, x, y, batch_size=8, steps_per_epoch=5)
        tf.keras.Model.fit(m, x, steps_per_epoch=3)
        """)


def test_fit_of_x_and_y_that_shuffles_goes_through_the_tf1_helper():
    """GoogleCloudPlatform/cloudml-samples @ a2a46dc tpu/templates/tpu_keras/trainer.py (2018):
    `np.random.seed(0)` then `model.fit(sequences, labels, epochs=3)`. TF 1.x drew each epoch's order
    from numpy's generator, Keras 3 and tf-keras from TensorFlow's. A literal `shuffle=False` (keyword
    or ninth positional) keeps the order of arrays on every Keras and is left, unless validation arrays
    are given (TF 1.x shuffled their rows with numpy whatever `shuffle` said: tests/migrate/
    test_keras_fit_weights_validation.py). x alone (a Sequence: TF 1.x
    read it as one stream, its order from Python's random; a dataset: TF 1.x's training loss over steps;
    tests/migrate/test_keras_sequence_fit.py) goes through the helper, with any shuffle."""
    assert_codemod(NAME, """
        import tensorflow as tf

        model.fit(sequences, labels, epochs=3)
        model.fit(x, y=labels, batch_size=16, validation_split=0.1)
        model.fit(x=x, y=y, shuffle=shuffle)
        model.fit(x, y, shuffle=False)
        model.fit(x, y, 8, 2, 0, None, 0.0, None, False)
        model.fit(x, y, shuffle=False, validation_split=0.2)
        model.fit(x, y, 8, 2, 0, None, 0.0, (vx, vy), False)
        model.fit(x, y, shuffle=False, validation_split=0)
        model.fit(dataset, epochs=3)
        model.fit(x=sequence, shuffle=False)
        model.fit()
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        estimator_bridge.compat.keras_methods.fit_tf1(model, sequences, labels, epochs=3)
        estimator_bridge.compat.keras_methods.fit_tf1(model, x, y=labels, batch_size=16, validation_split=0.1)
        estimator_bridge.compat.keras_methods.fit_tf1(model, x=x, y=y, shuffle=shuffle)
        model.fit(x, y, shuffle=False)
        model.fit(x, y, 8, 2, 0, None, 0.0, None, False)
        estimator_bridge.compat.keras_methods.fit_tf1(model, x, y, shuffle=False, validation_split=0.2)
        estimator_bridge.compat.keras_methods.fit_tf1(model, x, y, 8, 2, 0, None, 0.0, (vx, vy), False)
        model.fit(x, y, shuffle=False, validation_split=0)
        estimator_bridge.compat.keras_methods.fit_tf1(model, dataset, epochs=3)
        estimator_bridge.compat.keras_methods.fit_tf1(model, x=sequence, shuffle=False)
        model.fit()
        """)


def test_validation_of_the_same_call_is_still_restarted_each_epoch_under_a_strategy():
    assert_codemod(NAME, """
        import tensorflow as tf

        strategy = tf.distribute.get_strategy()
        model.fit(x, y, steps_per_epoch=5, validation_data=valid, validation_steps=1)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        strategy = tf.distribute.get_strategy()
        estimator_bridge.compat.keras_methods.fit_tf1(model, x, y, steps_per_epoch=5, validation_data=estimator_bridge.compat.keras_methods.restarted_each_epoch(valid), validation_steps=1)
        """)


def test_files_written_against_tf2_keep_keras_meaning():
    """In TF 2.x, fit(arrays, steps_per_epoch=N) already cut N batches, as Keras 3 does. (A file with
    no TF2-only name is read as TF1, e.g. the 2020 iris colab, `tf.distribute.experimental.TPUStrategy`
    being TF 1.14's too: there the model is compiled under the strategy and the helper runs `fit` as
    written, what TF 1.14 did under a TPUStrategy.)"""
    from migrate.engine import migrate_text

    source = ("import tensorflow as tf\n"
              "print(tf.config.list_logical_devices('TPU'))\n"
              "model.fit(x, y, steps_per_epoch=5, epochs=50)\n")
    assert "fit_tf1" not in migrate_text(source, "tf2.py")[0]
    assert "fit_tf1(model, x, y" in migrate_text(source.replace("tf.config.list_logical_devices", "len"), "tf1.py")[0]


def test_fit_on_arrays_that_shuffles_under_a_strategy_is_reported():
    """TF 1.15 fitted a model of OneDevice / Mirrored / TPU strategy on a tf.data shuffle seeded from the
    graph's seed and op count, an order no TF 2 program draws again (tests/migrate/
    test_keras_fit_strategy_arrays.py): MIG212 with the replacement, on fits of x and y that shuffle."""
    assert_codemod(NAME, """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = make_model()
        model.fit(x, y, batch_size=64, epochs=3)
        model.fit(x, y, shuffle=False)
        model.fit(dataset, epochs=3)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = make_model()
        estimator_bridge.compat.keras_methods.fit_tf1(model, x, y, batch_size=64, epochs=3)
        model.fit(x, y, shuffle=False)
        estimator_bridge.compat.keras_methods.fit_tf1(model, dataset, epochs=3)
        """, findings=["6:1 MIG212"])
