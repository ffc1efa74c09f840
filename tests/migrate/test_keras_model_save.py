"""A TF 1.x program's `model.save(path)` under a name Keras 3 refuses still writes the program's HDF5 file
after estimator-migrate (oracle test), and the codemod's rewrite as before/after pairs.

GoogleCloudPlatform/cloudml-samples tpu/templates/tpu_keras/trainer.py (a2a46dc, 2018-08) trains, then
`model.save(os.path.join(args.model_dir, 'model.hd5'))`: TF 1.15 writes HDF5 there; the migrated copy
(Keras 3) trained and then raised "Invalid filepath extension for saving" (`estimator-migrate verify`,
migrated side), with no finding. KerasModelSaveName routes such calls through
estimator_bridge.compat.keras_weights.save_model.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text, tf2_marker
from tests.migrate.codemods.support import assert_codemod, assert_unchanged
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_2018_model_save.py"
NAME = "KerasModelSaveName"


def test_a_name_keras_3_refuses_goes_through_the_helper():
    assert_codemod(NAME, """
        import os
        import numpy as np
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.save(os.path.join(model_dir, 'model.hd5'))
        model.save(export_path, True)
        model.save('final.h5')
        model.save(filepath='final.keras')
        np.save('x.npy', values)
        saver.save(sess, 'model.ckpt')
        """, """
        import os
        import numpy as np
        import tensorflow as tf
        import estimator_bridge.compat.keras_weights

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        estimator_bridge.compat.keras_weights.save_model(model, os.path.join(model_dir, 'model.hd5'))
        estimator_bridge.compat.keras_weights.save_model(model, export_path, True)
        model.save('final.h5')
        model.save(filepath='final.keras')
        np.save('x.npy', values)
        saver.save(sess, 'model.ckpt')
        """)


def test_a_tf2_program_is_left_keras_2_wrote_a_saved_model_there():
    source = (
        "import tensorflow as tf\n"
        "strategy = tf.distribute.TPUStrategy(resolver)\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "model.save('exported')\n")
    assert tf2_marker(source) is not None
    migrated, _ = migrate_text(source, "tf2.py")
    assert "model.save('exported')" in migrated and "save_model" not in migrated


@pytest.mark.oracle
def test_the_migrated_program_writes_tf_1_15s_hdf5_file_with_its_numbers(tmp_path):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "keras_weights.save_model(model, path)" in migrated
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    (tmp_path / "oracle").mkdir()
    (tmp_path / "ours").mkdir()
    oracle = run_json(oracle_python("tf115"), PROGRAM, str(tmp_path / "oracle"))
    assert oracle["tensorflow"] == "1.15.0" and oracle["files"] == ["model.hd5"] and oracle["hdf5"]
    ours = run_current_json(path, str(tmp_path / "ours"))   # before: ValueError, Invalid filepath extension
    assert ours["files"] == ["model.hd5"] and ours["hdf5"]
    np.testing.assert_allclose(ours["loss"], oracle["loss"], rtol=1e-5)
    assert len(ours["weights"]) == len(oracle["weights"])
    for mine, theirs in zip(ours["weights"], oracle["weights"]):
        # elementwise: measured 6.2e-7 relative at most (gradient descent; under Adam a weight whose
        # gradient is at rounding level took a full step either way: 4.4e-3 on an element of 2.6e-4)
        np.testing.assert_allclose(mine, theirs, rtol=1e-5)


def test_the_helper_passes_other_objects_and_keras_3_names_through(tmp_path):
    import keras

    from estimator_bridge.compat import keras_weights

    saved = []

    class Saver:
        def save(self, *args, **kwargs):
            saved.append((args, kwargs))

    keras_weights.save_model(Saver(), "ckpt", True)
    assert saved == [(("ckpt", True), {})]
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    keras_weights.save_model(model, str(tmp_path / "m.h5"))
    keras_weights.save_model(model, str(tmp_path / "m.hd5"), True, False)   # overwrite, include_optimizer
    keras_weights.save_model(model, str(tmp_path / "plain"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.h5", "m.hd5", "plain"]
    reloaded = keras.models.load_model(str(tmp_path / "m.h5"))
    np.testing.assert_array_equal(reloaded.get_weights()[0], model.get_weights()[0])
