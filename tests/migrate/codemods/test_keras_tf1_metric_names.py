"""KerasTF1MetricNames: metric strings of `compile` in TF 1.x files keep TF 1.x's names."""

from migrate.engine import migrate_text
from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasTF1MetricNames"


def test_metric_strings_tf1_named_otherwise_get_the_spelling_that_keeps_tf1s_name():
    """training-data-analyst 07_Keras_Flowers_TPU_squeezenet (a12263e96, 2019) compiles with
    metrics=['accuracy'] and plots history.history['acc']: KeyError on Keras 3 before."""
    assert_codemod(NAME, """
        import tensorflow as tf

        model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
        model.compile('adam', 'mse', metrics=("mae", 'mse', rmse, 'mape', 'msle', 'acc', 'sparse_categorical_accuracy'))
        re.compile('accuracy')
        model.compile('adam', 'mse', metrics=METRICS)
        """, """
        import tensorflow as tf

        model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['acc'])
        model.compile('adam', 'mse', metrics=("mean_absolute_error", 'mean_squared_error', rmse, 'mean_absolute_percentage_error', 'mean_squared_logarithmic_error', 'acc', 'sparse_categorical_accuracy'))
        re.compile('accuracy')
        model.compile('adam', 'mse', metrics=METRICS)
        """)


def test_tf1_metric_strings_keras_3_does_not_know_are_reported():
    assert_unchanged(NAME, """
        import tensorflow as tf

        model.compile('adam', 'categorical_crossentropy', metrics=['crossentropy', 'logcosh'])
        """, findings=["3:60 MIG207", "3:76 MIG207"])


def test_files_written_against_tf2_keep_their_metric_names():
    """TF 2.x's Keras already named 'accuracy' 'accuracy', as Keras 3 does."""
    source = ("import tensorflow as tf\n"
              "strategy = tf.distribute.TPUStrategy(tf.distribute.cluster_resolver.TPUClusterResolver())\n"
              "model.compile('adam', 'mse', metrics=['accuracy', 'mae'])\n")
    assert "metrics=['accuracy', 'mae']" in migrate_text(source, "tf2.py")[0]


def test_the_optimizer_rewrite_of_the_same_compile_keeps_the_renamed_metrics():
    source = ("import tensorflow as tf\n"
              "model.compile(optimizer=tf.train.AdamOptimizer(0.01), loss='mse', metrics=['accuracy'])\n")
    out = migrate_text(source, "tf1.py")[0]
    assert "keras_tf1_optimizers.Adam(learning_rate=0.01)" in out and "metrics=['acc']" in out


def test_a_metrics_list_held_in_a_name_that_reaches_compile_is_renamed_at_its_assignment():
    """`metrics = ['accuracy']; model.compile(..., metrics=metrics)` then `history.history['acc']`
    (TF 1.x notebooks that define their settings in a first cell): KeyError on Keras 3 before.
    A list whose name reaches no compile is left; a name bound twice in one scope has both of its
    lists renamed (the name analysis is per scope, not per line: harmless, both are metric lists)."""
    assert_codemod(NAME, """
        import tensorflow as tf

        METRICS = ['accuracy', "mae"]
        labels = ['accuracy', 'mae']
        model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=METRICS)
        other = ['acc', 'mse']
        other = ['accuracy']
        model.compile('adam', 'mse', metrics=other)
        """, """
        import tensorflow as tf

        METRICS = ['acc', "mean_absolute_error"]
        labels = ['accuracy', 'mae']
        model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=METRICS)
        other = ['acc', 'mean_squared_error']
        other = ['acc']
        model.compile('adam', 'mse', metrics=other)
        """)


def test_a_file_that_reads_tf2s_history_keys_keeps_its_metric_names():
    """A TF 2.0-2.1 notebook made only of names TF 1.15 also has is read as TF 1.x code; when it
    reads `history.history['accuracy']` (TF 2.x's key) renaming its metric to 'acc' would raise
    KeyError there. A file reading TF 1.x's 'acc' is still renamed."""
    source = """
        import tensorflow as tf

        strategy = tf.distribute.experimental.TPUStrategy(resolver)
        model.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
        history = model.fit(dataset, steps_per_epoch=10, epochs=2)
        plot(history.history['accuracy'], history.history['val_accuracy'])
        """
    assert_unchanged(NAME, source)
    assert_codemod(NAME, source.replace("history.history['accuracy']", "history.history['acc']"),
                   source.replace("history.history['accuracy']", "history.history['acc']")
                   .replace("metrics=['accuracy']", "metrics=['acc']"))
