"""`KerasTPUModel.sync_to_cpu()` for migrated keras_to_tpu_model code (estimator_bridge/compat/keras_tpu.py).

Found on tensorflow/tpu tools/colab/fashion_mnist.ipynb @ f4610ce (`cpu_model = tpu_model.sync_to_cpu()`
after fit_generator): the migrated notebook raised AttributeError on Keras 3. TF 1.15
(contrib/tpu/python/tpu/keras_support.py) returned the model given to keras_to_tpu_model, with the TPU
weights, compiled by the TPU model's compile, its optimizer's variable settings copied.
"""

from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.compat.keras_tpu import sync_to_cpu
from tests.support.oracles import oracle_python, run_current_json, run_json


def _converted(compile_original: bool):
    """What estimator-migrate writes for keras_to_tpu_model, on a one-device MirroredStrategy."""
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, activation="softmax")])
    if compile_original:
        model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.5), loss="sparse_categorical_crossentropy")
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        tpu_model = tf.keras.models.clone_model(model)
        tpu_model.set_weights(model.get_weights())
        if model.compiled:
            tpu_model.compile_from_config(model.get_compile_config())
        else:
            tpu_model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.5),
                              loss="sparse_categorical_crossentropy", metrics=["sparse_categorical_accuracy"])
    x = np.random.RandomState(0).rand(16, 3).astype("float32")
    y = (x[:, 0] > 0.5).astype("int32")
    tpu_model.fit(x, y, batch_size=8, epochs=2, verbose=0)
    return model, tpu_model, x, y


def test_the_original_model_comes_back_with_the_trained_weights():
    model, tpu_model, x, _ = _converted(compile_original=True)
    before = [w.copy() for w in model.get_weights()]
    synced = sync_to_cpu(tpu_model, model)
    assert synced is model
    for ours, trained, old in zip(synced.get_weights(), tpu_model.get_weights(), before):
        np.testing.assert_array_equal(ours, trained)
        assert not np.array_equal(ours, old)
    np.testing.assert_array_equal(synced.predict(x, verbose=0), tpu_model.predict(x, verbose=0))


def test_a_model_compiled_only_on_the_tpu_side_is_compiled_as_tf115_did():
    """The 2018 colabs converted first and compiled the TPU model: TF 1.15 compiled the CPU model too."""
    model, tpu_model, x, y = _converted(compile_original=False)
    synced = sync_to_cpu(tpu_model, model)
    assert synced.compiled
    assert synced.optimizer is not tpu_model.optimizer
    np.testing.assert_allclose(synced.evaluate(x, y, verbose=0), tpu_model.evaluate(x, y, verbose=0), rtol=1e-6)


def test_the_learning_rate_a_callback_changed_reaches_the_cpu_optimizer():
    model, tpu_model, _, _ = _converted(compile_original=True)
    tpu_model.optimizer.learning_rate.assign(0.125)
    sync_to_cpu(tpu_model, model)
    assert float(model.optimizer.learning_rate.numpy()) == 0.125


def test_tpu_model_input_calls_a_dataset_function_and_passes_anything_else_through():
    """KerasTPUModel took a function returning the dataset; arrays, datasets and None are Keras' own
    inputs (the joining of per-core batches on several replicas: tests/migrate/
    test_keras_tpu_dataset_function.py, in a process of its own)."""
    from estimator_bridge.compat.keras_tpu import tpu_model_input

    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    arrays = np.zeros((4, 3), "float32")
    dataset = tf.data.Dataset.from_tensor_slices(arrays).batch(2)
    assert tpu_model_input(arrays, model) is arrays
    assert tpu_model_input(dataset, model) is dataset
    assert tpu_model_input(None, model) is None
    assert tpu_model_input(lambda: dataset, model) is dataset   # one replica: the dataset as it is


PROGRAM = Path(__file__).parent / "programs" / "keras_to_tpu_model_colab.py"


@pytest.mark.oracle
def test_the_runner_converts_keras_to_tpu_model_as_tf115_trained():
    """The unchanged 2018 colab shape under the runner on 2 emulated cores (before: NotImplementedError
    'keras_to_tpu_model ... has no equivalent in the compat runner'). TF 1.15 without a TPU trains
    the CPU model on the global batch, which is what KerasTPUModel's cores together trained on:
    losses, validation losses, TF 1.x's 'acc' key and the synced weights agree within rtol 1e-6."""
    oracle = run_json(oracle_python("tf115"), PROGRAM, "--cpu")
    ours = run_current_json("-m", "estimator_bridge.tpu_emulation", "--cores", "2", "-m", "estimator_bridge.run",
                            str(PROGRAM))
    assert ours.keys() == oracle.keys()
    for key in oracle:
        np.testing.assert_allclose(ours[key], oracle[key], rtol=1e-6, err_msg=key)
