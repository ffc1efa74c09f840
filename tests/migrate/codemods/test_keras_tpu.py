"""KerasToTPUStrategy: `keras_to_tpu_model` -> a clone compiled in `TPUStrategy.scope()`; `.experimental_run_v2` -> `.run`."""

from tests.migrate.codemods.support import assert_codemod

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
