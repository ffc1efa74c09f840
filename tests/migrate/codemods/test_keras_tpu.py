"""KerasToTPUStrategy: `keras_to_tpu_model` -> a clone compiled in `TPUStrategy.scope()`; `.experimental_run_v2` -> `.run`."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasToTPUStrategy"


def test_keras_to_tpu_model_with_an_inline_strategy():
    assert_codemod(NAME, """
        import tensorflow as tf

        tpu_model = tf.contrib.tpu.keras_to_tpu_model(
            model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
        """, """
        import tensorflow as tf

        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        strategy = tf.distribute.TPUStrategy(resolver)
        with strategy.scope():
            tpu_model = tf.keras.models.clone_model(model)
            tpu_model.set_weights(model.get_weights())
            if model.compiled:
                tpu_model.compile_from_config(model.get_compile_config())
        """)


def test_a_compile_of_the_converted_model_moves_into_the_strategy_scope():
    assert_codemod(NAME, """
        import tensorflow as tf

        def to_tpu(model, resolver):
            tpu_model = tf.contrib.tpu.keras_to_tpu_model(
                model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
            tpu_model.compile(optimizer="sgd", loss="mse")
            model.compile(optimizer="sgd", loss="mse")
            return tpu_model
        """, """
        import tensorflow as tf

        def to_tpu(model, resolver):
            tf.config.experimental_connect_to_cluster(resolver)
            tf.tpu.experimental.initialize_tpu_system(resolver)
            strategy = tf.distribute.TPUStrategy(resolver)
            with strategy.scope():
                tpu_model = tf.keras.models.clone_model(model)
                tpu_model.set_weights(model.get_weights())
                if model.compiled:
                    tpu_model.compile_from_config(model.get_compile_config())
            with strategy.scope():
                tpu_model.compile(optimizer="sgd", loss="mse")
            model.compile(optimizer="sgd", loss="mse")
            return tpu_model
        """)


def test_rebinding_the_name_keeps_the_loaded_weights():
    assert_codemod(NAME, """
        import tensorflow as tf

        model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
        """, """
        import tensorflow as tf

        cpu_model = model
        with strategy.scope():
            model = tf.keras.models.clone_model(cpu_model)
            model.set_weights(cpu_model.get_weights())
            if cpu_model.compiled:
                model.compile_from_config(cpu_model.get_compile_config())
        """)


def test_experimental_run_v2_is_renamed_on_any_strategy_object():
    assert_codemod(NAME, """
        strategy.experimental_run_v2(step, args=(x,))
        """, """
        strategy.run(step, args=(x,))
        """)


def test_sync_to_cpu_of_a_converted_model_copies_into_the_model_it_was_converted_from():
    """tensorflow/tpu tools/colab/fashion_mnist.ipynb @ f4610ce: `cpu_model = tpu_model.sync_to_cpu()`
    after fit; a Keras 3 model has no sync_to_cpu (AttributeError). TF 1.15 returned the model given
    to keras_to_tpu_model with the TPU weights."""
    assert_codemod(NAME, """
        import tensorflow as tf

        def train(model, resolver, x, y):
            tpu_model = tf.contrib.tpu.keras_to_tpu_model(
                model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
            tpu_model.fit(x, y)
            cpu_model = tpu_model.sync_to_cpu()
            return cpu_model, tpu_model.sync_to_cpu().predict(x)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_tpu

        def train(model, resolver, x, y):
            tf.config.experimental_connect_to_cluster(resolver)
            tf.tpu.experimental.initialize_tpu_system(resolver)
            strategy = tf.distribute.TPUStrategy(resolver)
            with strategy.scope():
                tpu_model = tf.keras.models.clone_model(model)
                tpu_model.set_weights(model.get_weights())
                if model.compiled:
                    tpu_model.compile_from_config(model.get_compile_config())
            tpu_model.fit(x, y)
            cpu_model = estimator_bridge.compat.keras_tpu.sync_to_cpu(tpu_model, model)
            return cpu_model, estimator_bridge.compat.keras_tpu.sync_to_cpu(tpu_model, model).predict(x)
        """)


def test_sync_to_cpu_after_rebinding_the_name_copies_into_the_kept_original():
    assert_codemod(NAME, """
        import tensorflow as tf

        model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
        model.sync_to_cpu().save("m.h5")
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_tpu

        cpu_model = model
        with strategy.scope():
            model = tf.keras.models.clone_model(cpu_model)
            model.set_weights(cpu_model.get_weights())
            if cpu_model.compiled:
                model.compile_from_config(cpu_model.get_compile_config())
        estimator_bridge.compat.keras_tpu.sync_to_cpu(model, cpu_model).save("m.h5")
        """)


def test_sync_to_cpu_on_a_model_not_converted_in_this_scope_is_reported():
    """Which CPU model the TPU model came from cannot be seen: MIG203 with the helper to call."""
    assert_unchanged(NAME, """
        import tensorflow as tf

        def to_cpu(tpu_model):
            return tpu_model.sync_to_cpu()

        trained = models["tpu"].sync_to_cpu()
        """, findings=["4:12 MIG203", "6:11 MIG203"])


def test_a_conversion_under_if_tpu_feeds_fit_and_evaluate_through_the_dataset_function_helper():
    """training-data-analyst 07_Keras_Flowers_TPU_squeezenet (a12263e96, 2019): the conversion and
    the fit sit in `if tpu:` blocks (the conversion was not recorded there before: the compile,
    sync_to_cpu and input rewrites never fired), and KerasTPUModel's fit/evaluate took functions
    returning datasets, one batch per core. x given with y (arrays) and (x, y) validation tuples
    are not wrapped."""
    assert_codemod(NAME, """
        import tensorflow as tf

        if tpu:
          tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=tf.contrib.tpu.TPUDistributionStrategy(tpu))
        if tpu:
          tpu_model.compile('sgd', 'mse')
          history = tpu_model.fit(get_training_dataset, steps_per_epoch=4, validation_data=get_validation_dataset)
          tpu_model.evaluate(x=get_validation_dataset, steps=2)
          tpu_model.fit(images, labels, batch_size=128, validation_data=(val_images, val_labels))
          tpu_model.fit(x=images, y=labels)
          cpu_model = tpu_model.sync_to_cpu()
        model.fit(get_training_dataset(), steps_per_epoch=4)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_tpu

        if tpu:
          tf.config.experimental_connect_to_cluster(tpu)
          tf.tpu.experimental.initialize_tpu_system(tpu)
          strategy = tf.distribute.TPUStrategy(tpu)
          with strategy.scope():
            tpu_model = tf.keras.models.clone_model(model)
            tpu_model.set_weights(model.get_weights())
            if model.compiled:
              tpu_model.compile_from_config(model.get_compile_config())
        if tpu:
          with tpu_model.distribute_strategy.scope():
            tpu_model.compile('sgd', 'mse')
          history = tpu_model.fit(estimator_bridge.compat.keras_tpu.tpu_model_input(get_training_dataset, tpu_model), steps_per_epoch=4, validation_data=estimator_bridge.compat.keras_tpu.tpu_model_input(get_validation_dataset, tpu_model))
          tpu_model.evaluate(x=estimator_bridge.compat.keras_tpu.tpu_model_input(get_validation_dataset, tpu_model), steps=2)
          tpu_model.fit(images, labels, batch_size=128, validation_data=(val_images, val_labels))
          tpu_model.fit(x=images, y=labels)
          cpu_model = estimator_bridge.compat.keras_tpu.sync_to_cpu(tpu_model, model)
        model.fit(get_training_dataset(), steps_per_epoch=4)
        """)


def test_the_strategy_from_the_keras_support_module_is_tf_contrib_tpus():
    # 2018 Colab scripts imported the module itself (heldout5: koshian2/TPU-Benchmark tpu_gpu_benchmark.py,
    # affinity-loss, NeuralStyleTransferTPU, OctConv-TFKeras, ResNet-MultipleFramework): its strategy was
    # left as written and the import line was a MIG306 error.
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow.contrib.tpu.python.tpu import keras_support

        def to_tpu(model, resolver):
            strategy = keras_support.TPUDistributionStrategy(resolver)
            model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
            return model
        """, """
        import tensorflow as tf

        def to_tpu(model, resolver):
            tf.config.experimental_connect_to_cluster(resolver)
            tf.tpu.experimental.initialize_tpu_system(resolver)
            strategy = tf.distribute.TPUStrategy(resolver)
            cpu_model = model
            with strategy.scope():
                model = tf.keras.models.clone_model(cpu_model)
                model.set_weights(cpu_model.get_weights())
                if cpu_model.compiled:
                    model.compile_from_config(cpu_model.get_compile_config())
            return model
        """)


def test_an_attribute_rebound_to_its_tpu_model_is_converted_like_a_name():
    # The shape of 2018 Colab classes (an AlphaZero network, an autoencoder): `self.model` converted
    # behind `if use_tpu:` and compiled after on both paths.
    assert_codemod(NAME, """
        import tensorflow as tf

        class Net:
            def __init__(self, model, resolver, use_tpu):
                self.model = model
                if use_tpu:
                    self.model = tf.contrib.tpu.keras_to_tpu_model(
                        self.model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
                self.model.compile(optimizer="sgd", loss="mse")
        """, """
        import tensorflow as tf

        class Net:
            def __init__(self, model, resolver, use_tpu):
                self.model = model
                if use_tpu:
                    tf.config.experimental_connect_to_cluster(resolver)
                    tf.tpu.experimental.initialize_tpu_system(resolver)
                    strategy = tf.distribute.TPUStrategy(resolver)
                    cpu_model = self.model
                    with strategy.scope():
                        self.model = tf.keras.models.clone_model(cpu_model)
                        self.model.set_weights(cpu_model.get_weights())
                        if cpu_model.compiled:
                            self.model.compile_from_config(cpu_model.get_compile_config())
                with self.model.distribute_strategy.scope():
                    self.model.compile(optimizer="sgd", loss="mse")
        """)


def test_an_attribute_model_converted_under_a_named_strategy():
    assert_codemod(NAME, """
        import tensorflow as tf

        class Trainer:
            def to_tpu(self, tpu_worker):
                strategy = tf.contrib.tpu.TPUDistributionStrategy(
                    tf.contrib.cluster_resolver.TPUClusterResolver(tpu=tpu_worker))
                self.tpu_model = tf.contrib.tpu.keras_to_tpu_model(self.model, strategy=strategy)
        """, """
        import tensorflow as tf

        class Trainer:
            def to_tpu(self, tpu_worker):
                strategy_resolver = tf.contrib.cluster_resolver.TPUClusterResolver(tpu=tpu_worker)
                tf.config.experimental_connect_to_cluster(strategy_resolver)
                tf.tpu.experimental.initialize_tpu_system(strategy_resolver)
                strategy = tf.distribute.TPUStrategy(strategy_resolver)
                with strategy.scope():
                    self.tpu_model = tf.keras.models.clone_model(self.model)
                    self.tpu_model.set_weights(self.model.get_weights())
                    if self.model.compiled:
                        self.tpu_model.compile_from_config(self.model.get_compile_config())
        """)


def test_a_plain_name_converted_under_if_compiles_in_its_own_strategy_on_both_paths():
    # `strategy` is bound inside `if use_tpu:` only: the compile after the `if` runs on both paths,
    # so it enters the model's own strategy (TPUStrategy when converted, the default one otherwise;
    # `with strategy.scope():` raised NameError when use_tpu was false).
    assert_codemod(NAME, """
        import tensorflow as tf

        def build(model, resolver, use_tpu):
            if use_tpu:
                model = tf.contrib.tpu.keras_to_tpu_model(
                    model, strategy=tf.contrib.tpu.TPUDistributionStrategy(resolver))
                model.compile(optimizer="sgd", loss="mse")
            model.compile(optimizer="sgd", loss="mse")
            return model
        """, """
        import tensorflow as tf

        def build(model, resolver, use_tpu):
            if use_tpu:
                tf.config.experimental_connect_to_cluster(resolver)
                tf.tpu.experimental.initialize_tpu_system(resolver)
                strategy = tf.distribute.TPUStrategy(resolver)
                cpu_model = model
                with strategy.scope():
                    model = tf.keras.models.clone_model(cpu_model)
                    model.set_weights(cpu_model.get_weights())
                    if cpu_model.compiled:
                        model.compile_from_config(cpu_model.get_compile_config())
                with strategy.scope():
                    model.compile(optimizer="sgd", loss="mse")
            with model.distribute_strategy.scope():
                model.compile(optimizer="sgd", loss="mse")
            return model
        """)
