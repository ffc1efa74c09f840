"""Keras `fit` on a Sequence of a model under a tf.distribute strategy: KerasRemovedMethods keeps Keras 3's
build read from drawing an order (unseen_symbolic_build), KerasTF1Fit reports a TF 1.x file's (MIG213).
Measured: tests/migrate/test_keras_sequence_strategy.py."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged


def test_fit_on_data_alone_in_a_file_with_a_strategy_and_a_sequence_is_wrapped():
    """TF 2.15 read a Sequence under MirroredStrategy as under no strategy; Keras 3's trainer reads a batch
    before the first epoch and draws one order more (the first epoch's loss 0.70068 against 0.70373).
    x alone (positional or x=) is wrapped once; x with labels, and files without a Sequence, are left."""
    assert_codemod("KerasRemovedMethods", """
        import tensorflow as tf

        class Batches(tf.keras.utils.Sequence):
            pass

        strategy = tf.distribute.MirroredStrategy()
        model.fit(Batches(), epochs=3)
        model.fit(x=train, epochs=3)
        model.fit(x, y, epochs=3)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        class Batches(tf.keras.utils.Sequence):
            pass

        strategy = tf.distribute.MirroredStrategy()
        model.fit(estimator_bridge.compat.keras_methods.unseen_symbolic_build(Batches()), epochs=3)
        model.fit(x=estimator_bridge.compat.keras_methods.unseen_symbolic_build(train), epochs=3)
        model.fit(x, y, epochs=3)
        """)


def test_an_image_generator_flow_under_a_strategy_is_wrapped_with_its_validation():
    """An ImageDataGenerator flow is a Sequence too (its order drawn with numpy); a validation with steps
    keeps its own wrap."""
    assert_codemod("KerasRemovedMethods", """
        import tensorflow as tf

        strategy = tf.distribute.TPUStrategy(resolver)
        model.fit(datagen.flow(x, y, batch_size=32), validation_data=valid, validation_steps=2)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        strategy = tf.distribute.TPUStrategy(resolver)
        model.fit(estimator_bridge.compat.keras_methods.unseen_symbolic_build(datagen.flow(x, y, batch_size=32)), validation_data=estimator_bridge.compat.keras_methods.restarted_each_epoch(valid), validation_steps=2)
        """)


def test_fit_on_a_dataset_under_a_strategy_without_sequences_is_left():
    assert_unchanged("KerasRemovedMethods", """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        model.fit(dataset, epochs=3)
        """)


def test_a_tf1_fit_on_a_sequence_under_a_strategy_is_reported():
    """TF 1.15's fit took datasets only for a model of a non-default strategy (AssertionError on a
    Sequence): MIG213 on fits without labels in a file that defines a Sequence and enters such a scope."""
    assert_codemod("KerasTF1Fit", """
        import tensorflow as tf

        class Batches(tf.keras.utils.Sequence):
            pass

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = make_model()
        model.fit(Batches(), epochs=3)
        model.fit(x, y, shuffle=False)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        class Batches(tf.keras.utils.Sequence):
            pass

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = make_model()
        estimator_bridge.compat.keras_methods.fit_tf1(model, Batches(), epochs=3)
        model.fit(x, y, shuffle=False)
        """, findings=["9:1 MIG213"])
