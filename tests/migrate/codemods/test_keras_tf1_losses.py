"""KerasTF1Losses: the crossentropies of `compile(loss=...)` in TF 1.x files keep TF 1.x's logits rule."""

from tests.migrate.codemods.support import assert_codemod

NAME = "KerasTF1Losses"


def test_crossentropy_strings_and_functions_of_compile_become_tf1_losses():
    """tensorflow/tpu @ c2ac4b9 tools/colab/autoencoder_embeddings.ipynb (TF 1.14): a sigmoid output
    compiled with 'sparse_categorical_crossentropy', which TF 1.15 renormalised and Keras 3 reads as
    softmax logits. The loss keyword, TF 1.x's second position and `keras.losses` functions are
    rewritten; other losses, other arguments and other calls are left."""
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow import keras

        model.compile(optimizer=tf.train.GradientDescentOptimizer(0.5), loss='sparse_categorical_crossentropy', metrics=['accuracy'])
        model.compile('adam', "binary_crossentropy")
        model.compile('adam', loss=tf.keras.losses.categorical_crossentropy)
        model.compile('adam', keras.losses.binary_crossentropy)
        model.compile('adam', loss='mse', metrics=['binary_crossentropy'])
        model.compile('adam', loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True))
        model.fit(x, 'categorical_crossentropy')
        """, """
        import tensorflow as tf
        from tensorflow import keras
        import estimator_bridge.compat.keras_tf1_losses

        model.compile(optimizer=tf.train.GradientDescentOptimizer(0.5), loss=estimator_bridge.compat.keras_tf1_losses.sparse_categorical_crossentropy, metrics=['accuracy'])
        model.compile('adam', estimator_bridge.compat.keras_tf1_losses.binary_crossentropy)
        model.compile('adam', loss=estimator_bridge.compat.keras_tf1_losses.categorical_crossentropy)
        model.compile('adam', estimator_bridge.compat.keras_tf1_losses.binary_crossentropy)
        model.compile('adam', loss='mse', metrics=['binary_crossentropy'])
        model.compile('adam', loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True))
        model.fit(x, 'categorical_crossentropy')
        """)


def test_files_written_against_tf2_keep_keras_rule():
    """TF 2.x's Keras (2.0-2.15) already took any sigmoid's or softmax's input as logits, as Keras 3 does."""
    from migrate.engine import migrate_text

    source = ("import tensorflow as tf\n"
              "print(tf.config.list_logical_devices('TPU'))\n"
              "model.compile('adam', loss='sparse_categorical_crossentropy')\n")
    assert "keras_tf1_losses" not in migrate_text(source, "tf2.py")[0]
    assert "keras_tf1_losses.sparse_categorical_crossentropy" in migrate_text(
        source.replace("tf.config.list_logical_devices", "len"), "tf1.py")[0]
