"""Keras 2's ImageDataGenerator feeds a Keras 3 model after estimator-migrate (oracle test).

koshian2/ResNet-MultipleFramework `resnet_keras_tpu.py` (2018) and koshian2/OctConv-TFKeras `train.py`
(2019) train with `fit_generator(ImageDataGenerator(...).flow(x, y, batch_size), ...)`. Keras 3 dropped
ImageDataGenerator, the codemod served tf-keras', and Keras 3's fit refused its flow: "ValueError:
Unrecognized data type: x=<tf_keras...NumpyArrayIterator>" before the first step, with no finding. The
codemod now writes estimator_bridge.compat.keras2_image.ImageDataGenerator (tf-keras' generator whose
flows are Keras 3 PyDatasets). tests/migrate/programs/keras_image_data_generator.py (fit_generator with
a float steps_per_epoch and validation flows, evaluate_generator, predict_generator) measured against
TF 1.15 (TF 2.21 + Keras 3.15, CPU): losses within 5e-8 relative, predictions within 1e-7; held to 1e-6.
"""

import numpy as np
import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_image_data_generator.py"


def test_image_data_generator_becomes_the_keras_3_batches_one():
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "from estimator_bridge.compat.keras2_image import ImageDataGenerator" in migrated
    assert "tf_keras.preprocessing.image" not in migrated
    assert findings == []


def test_a_flow_is_a_keras_3_py_dataset_with_keras_2_batches():
    import keras
    from tf_keras.preprocessing.image import ImageDataGenerator as Keras2Generator

    from estimator_bridge.compat.keras2_image import ImageDataGenerator

    x = np.arange(5 * 2 * 2 * 1, dtype=np.float32).reshape(5, 2, 2, 1)
    flow = ImageDataGenerator(rescale=0.5).flow(x, np.arange(5), batch_size=2, shuffle=False)
    expected = Keras2Generator(rescale=0.5).flow(x, np.arange(5), batch_size=2, shuffle=False)
    assert isinstance(flow, keras.utils.PyDataset)
    assert len(flow) == len(expected) == 3 and flow.n == 5 and flow.batch_size == 2
    for index in range(3):
        np.testing.assert_array_equal(flow[index][0], expected[index][0])
        np.testing.assert_array_equal(flow[index][1], expected[index][1])
    np.testing.assert_array_equal(next(flow)[0], next(expected)[0])


@pytest.mark.oracle
def test_the_migrated_generator_program_reproduces_tf_1_15(tmp_path):
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    oracle = run_json(oracle_python("tf115"), PROGRAM)
    assert oracle["tensorflow"] == "1.15.0"
    ours = run_current_json(path)
    for key in ("loss", "val_loss", "evaluate", "predictions"):
        np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-6, err_msg=key)
    assert ours["batches"] == oracle["batches"] == 2
