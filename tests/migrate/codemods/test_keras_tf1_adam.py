"""KerasTF1Adam: `compile(optimizer='adam')` in TF 1.x Keras code gets TF 1.x Keras' Adam step."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasTF1Adam"


def test_the_adam_string_in_tf1_keras_code_becomes_the_kernel_adam(monkeypatch):
    """training-data-analyst's 01_MNIST_TPU_Keras (2018): keyword and positional, any case; other
    optimizers stay (their Keras 3 steps are TF 1.x's)."""
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", "3")
    assert_codemod(NAME, """
        import tensorflow as tf

        model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['acc'])
        model.compile("Adam", "mse")
        model.compile(optimizer='sgd', loss='mse')
        tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_tf1_optimizers

        model.compile(optimizer=estimator_bridge.compat.keras_tf1_optimizers.KerasAdam(), loss='categorical_crossentropy', metrics=['acc'])
        model.compile(estimator_bridge.compat.keras_tf1_optimizers.KerasAdam(), "mse")
        model.compile(optimizer='sgd', loss='mse')
        tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
        """)


def test_the_keras_2_target_gets_tf_keras_legacy_adam(monkeypatch):
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", "2")
    assert_codemod(NAME, """
        import tensorflow as tf

        model.compile(optimizer='adam', loss='mse')
        net = tf.contrib.layers.fully_connected(x, 3)
        """, """
        import tensorflow as tf
        import tf_keras

        model.compile(optimizer=tf_keras.optimizers.legacy.Adam(), loss='mse')
        net = tf.contrib.layers.fully_connected(x, 3)
        """)


def test_tf_keras_adam_constructors_in_tf1_keras_code_become_the_kernel_adam(monkeypatch):
    """tagtag/Behaviormetric's 3_3_convolution_tpu notebook: `Adam(lr=0.001)` imported from
    tensorflow.keras.optimizers, beside keras_to_tpu_model. Every tf.keras spelling, `lr` spelled
    `learning_rate`, positional arguments kept; TF 1.x-only arguments (`decay`) and standalone
    Keras' Adam (its rates formed in Python, as Keras 3's) are not this codemod's."""
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", "3")
    assert_codemod(NAME, """
        import tensorflow as tf
        import keras
        from tensorflow.keras.optimizers import Adam

        tpu_model.compile(loss='categorical_crossentropy', optimizer=Adam(lr=0.001), metrics=['acc'])
        opt = tf.keras.optimizers.Adam(0.01, 0.8, epsilon=1e-8)
        decayed = tf.keras.optimizers.Adam(lr=0.01, decay=1e-6)
        standalone = keras.optimizers.Adam(lr=0.01)
        tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
        """, """
        import tensorflow as tf
        import keras
        from tensorflow.keras.optimizers import Adam
        import estimator_bridge.compat.keras_tf1_optimizers

        tpu_model.compile(loss='categorical_crossentropy', optimizer=estimator_bridge.compat.keras_tf1_optimizers.KerasAdam(learning_rate=0.001), metrics=['acc'])
        opt = estimator_bridge.compat.keras_tf1_optimizers.KerasAdam(0.01, 0.8, epsilon=1e-8)
        decayed = tf.keras.optimizers.Adam(lr=0.01, decay=1e-6)
        standalone = keras.optimizers.Adam(lr=0.01)
        tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)
        """)


def test_the_keras_2_target_gets_tf_keras_legacy_adam_for_every_constructor(monkeypatch):
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", "2")
    assert_codemod(NAME, """
        import tensorflow as tf

        opt = tf.keras.optimizers.Adam(lr=0.01, decay=1e-6)
        net = tf.contrib.layers.fully_connected(x, 3)
        """, """
        import tensorflow as tf
        import tf_keras

        opt = tf_keras.optimizers.legacy.Adam(learning_rate=0.01, decay=1e-6)
        net = tf.contrib.layers.fully_connected(x, 3)
        """)


def test_tf2_code_keeps_its_adam_constructor(monkeypatch):
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", "3")
    assert_unchanged(NAME, """
        import tensorflow as tf

        opt = tf.keras.optimizers.Adam(learning_rate=0.01)
        """)


def test_tf2_code_keeps_its_adam(monkeypatch):
    """Without tf.contrib or keras_to_tpu_model the program may be TF 2.11+ code (verify's TF 2.x
    oracle, TF 2.15, runs Keras 3's arithmetic): left as written."""
    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", "3")
    assert_unchanged(NAME, """
        import tensorflow as tf

        model.compile(optimizer='adam', loss='mse')
        """)


def test_the_metrics_of_the_same_compile_keep_their_tf1_names(monkeypatch):
    """The whole pipeline: the compile call is also KerasTF1MetricNames' ('accuracy' -> 'acc', the key
    TF 1.x's history had), and a call rewritten by one handler is not offered to the next, so the
    optimizer is replaced at the statement (01_MNIST_TPU_Keras reads `history.history['acc']`: KeyError
    when the optimizer was replaced at the call)."""
    from migrate.engine import migrate_text

    monkeypatch.setenv("ESTIMATOR_MIGRATE_KERAS", "3")
    migrated, _ = migrate_text("import tensorflow as tf\n"
                               "model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])\n"
                               "tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=strategy)\n"
                               "history = model.fit(x, y)\n"
                               "plot(history.history['acc'])\n", "m.py")
    # the loss of the same call is KerasTF1Losses' (TF 1.x's logits rule): all three rewrites compose
    assert ("model.compile(optimizer=estimator_bridge.compat.keras_tf1_optimizers.KerasAdam(), "
            "loss=estimator_bridge.compat.keras_tf1_losses.categorical_crossentropy, metrics=['acc'])") in migrated


def test_the_text_trigger_fires_on_keras_adam_and_not_on_the_bridges_own_adams():
    """legacy_examples/keras_tpu_weights/keras_pretrained.py's migrated output holds the bridge's
    `keras_tf1_optimizers.Adam(` (TF 1.x's AdamOptimizer) beside `keras_to_tpu_model` in its
    docstring: the trigger sent the re-run of the codemod to libcst (tests/migrate/test_prefilter.py)."""
    from migrate.codemods.keras_tf1_adam import tf1_keras_adam

    tf1 = "# keras_to_tpu_model\n"
    assert tf1_keras_adam(tf1 + "opt = tf.keras.optimizers.Adam(lr=0.1)\n")
    assert tf1_keras_adam(tf1 + "from tensorflow.keras.optimizers import Adam\nopt = Adam(0.1)\n")
    assert tf1_keras_adam(tf1 + "opt = my_optimizers.Adam(0.1)\n")  # an alias: the pipeline decides
    assert not tf1_keras_adam(tf1 + "opt = estimator_bridge.compat.keras_tf1_optimizers.Adam(learning_rate=0.1)\n")
    assert not tf1_keras_adam(tf1 + "opt = tf_keras.optimizers.legacy.Adam(learning_rate=0.1)\n")
