"""A call with an argument shape only TF 2.x accepts reads the file as TF 2 code (tables/tf2_calls.py).

GoogleCloudPlatform/training-data-analyst's keras_104_flowers notebook (TF 2.2) uses no TF2-only
name but `tf.saved_model.load(path)`: read as TF 1.x, that call became TF 1's
`tf.compat.v1.saved_model.load`, which needs (sess, tags, export_dir), and the migrated notebook
failed where the original ran."""

from migrate.engine import migrate_text, tf2_marker


def test_tf2_saved_model_load_keeps_the_file_tf2():
    source = "import tensorflow as tf\nmodel = tf.saved_model.load('gs://bucket/model')\nx = tf.placeholder(tf.float32)\n"
    output, findings = migrate_text(source, "notebook.py")
    assert output == source
    assert [(f.location.line, f.code) for f in findings] == [(2, "MIG101"), (3, "MIG305")]
    assert "tf.saved_model.load(...) with TF 2.x's arguments" in findings[0].message
    assert findings[1].hint == "use `tf.compat.v1.placeholder`: TensorFlow 2 keeps the TF 1.x name there"


def test_tf1_saved_model_load_is_tf1_s_loader():
    source = ("import tensorflow as tf\nwith tf.Session() as sess:\n"
              "  tf.saved_model.load(sess, [tf.saved_model.tag_constants.SERVING], 'model')\n")
    output, findings = migrate_text(source, "serve.py")
    assert "tf.compat.v1.saved_model.load(sess, [" in output
    assert not [f for f in findings if f.code == "MIG101"]


def test_the_shapes_that_decide():
    def marker(call):
        return tf2_marker(f"import tensorflow as tf\nm = {call}\n")

    assert marker("tf.saved_model.load(path)") is not None
    assert marker("tf.saved_model.load(path, tags=['serve'])") is not None
    assert marker("tf.compat.v2.saved_model.load(export_dir=path)") is not None
    assert marker("tf.saved_model.load(sess, ['serve'], path)") is None  # TF 1.x's three arguments
    assert marker("tf.saved_model.load(sess=s, tags=t)") is None  # a TF 1.x keyword
    assert marker("tf.saved_model.load(*arguments)") is None  # cannot tell
    gated = "import tensorflow as tf\nif tf.__version__ >= '2':\n  m = tf.saved_model.load(path)\n"
    assert tf2_marker(gated) is None  # a version-gated TF 2 branch leaves the file TF 1.x


def test_a_tf2_only_name_in_a_comment_or_a_string_does_not_make_a_tf1_file_tf2():
    # heldout4 fixture contrib/import_line_hints: --annotate wrote a marker whose hint names
    # tf.distribute.TPUStrategy (MIG201 on TPUStrategy(steps_per_run=...)); the second run read the
    # marker as TF 2 code (MIG101), stopped rewriting tf.global_variables_initializer to tf.compat.v1
    # and annotated it again. A TF 1.x file whose comment says "use tf.distribute.TPUStrategy" is the same.
    source = ("import tensorflow as tf\n"
              "# TODO: tf.distribute.TPUStrategy(resolver) once on TF 2\n"
              "NOTE = 'tf.distribute.TPUStrategy'\n"
              "init = tf.global_variables_initializer()\n")
    assert tf2_marker(source) is None
    migrated, findings = migrate_text(source, "module.py")
    assert "init = tf.compat.v1.global_variables_initializer()" in migrated
    assert "MIG101" not in {finding.code for finding in findings}
    assert tf2_marker(source + "strategy = tf.distribute.TPUStrategy(r)\n") == ("tf.distribute.TPUStrategy", 5)
