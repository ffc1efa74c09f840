"""Keras 2's `x.reset_states()` on Keras 3 objects (estimator_bridge/compat/keras_methods.py).

Found on tensorflow/tpu tools/colab/shakespeare_with_tpu_and_keras.ipynb @ f4610ce: a stateful LSTM
model (batch 5, one character per step) primed with `prediction_model.reset_states()`, then sampled
one `predict` at a time; Keras 3 models have no reset_states (AttributeError).
"""

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge.compat.keras_methods import reset_states
from tests.support.numbers import assert_close
from tests.support.oracles import oracle_python, run_json


def _stateful_model(nested: bool = False):
    inputs = tf.keras.Input(shape=(1,), batch_size=2, dtype="int32")
    x = tf.keras.layers.Embedding(10, 4)(inputs)
    x = tf.keras.layers.LSTM(3, stateful=True, return_sequences=True)(x)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(5)(x))
    if nested:
        model = tf.keras.Sequential([tf.keras.Input(shape=(1,), batch_size=2, dtype="int32"), model])
    return model


@pytest.mark.parametrize("nested", [False, True])
def test_a_models_stateful_layers_start_again_as_keras_2s_model_reset_states_did(nested):
    model = _stateful_model(nested)
    seed = np.array([[1], [2]], dtype="int32")
    first = model.predict(seed, verbose=0)
    carried = model.predict(seed, verbose=0)
    assert not np.allclose(first, carried)          # the state carried over
    reset_states(model)
    np.testing.assert_array_equal(model.predict(seed, verbose=0), first)


def test_a_metric_is_reset_with_keras_3s_reset_state():
    metric = tf.keras.metrics.Mean()
    metric.update_state([1.0, 3.0])
    reset_states(metric)
    assert float(metric.result()) == 0.0


def test_an_object_with_its_own_reset_states_keeps_it():
    calls = []

    class Custom:
        def reset_states(self):
            calls.append("own")
            return "done"

    assert reset_states(Custom()) == "done" and calls == ["own"]


def test_anything_else_is_an_attribute_error_naming_keras_2s_method():
    with pytest.raises(AttributeError, match="reset_states"):
        reset_states(object())


def _fit_with_validation_steps(wrap, learning_rate):
    """The MNIST notebook's shape: one finite validation batch of unknown size, validation_steps=1,
    MirroredStrategy with one replica (the notebook's non-TPU fallback)."""
    import keras

    from estimator_bridge.compat.keras_methods import restarted_each_epoch

    x = np.random.RandomState(0).rand(64, 4).astype("float32")
    y = (x[:, 0] > 0.5).astype("float32")
    valid = tf.data.Dataset.from_tensor_slices((x, y)).filter(lambda a, b: True).batch(64)
    train = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)
    with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, activation="sigmoid")])
        model.compile(keras.optimizers.SGD(learning_rate), "binary_crossentropy")
    history = model.fit(train, steps_per_epoch=2, epochs=3, verbose=0, validation_steps=1,
                        validation_data=restarted_each_epoch(valid) if wrap else valid)
    return model, history.history["val_loss"], valid


def test_finite_validation_read_to_its_end_is_restarted_each_epoch_under_a_strategy():
    """Keras 3.15 without the helper: StopIteration at the 2nd epoch (measured); Keras 2.15 (TF 2.15
    oracle, same program): 3 epochs, and with learning rate 0 the same val_loss at every epoch
    (restarted from the start). With the helper Keras 3 does the same."""
    _, frozen, _ = _fit_with_validation_steps(wrap=True, learning_rate=0.0)
    assert len(frozen) == 3 and frozen[0] == frozen[1] == frozen[2]
    model, losses, valid = _fit_with_validation_steps(wrap=True, learning_rate=0.1)
    assert len(losses) == 3
    np.testing.assert_allclose(losses[-1], model.evaluate(valid, verbose=0), rtol=1e-6)


def test_without_the_helper_keras_3_still_fails_here():
    """Pins the Keras 3 behaviour the helper exists for; when this fails, Keras fixed it upstream."""
    from keras.src.backend.tensorflow.trainer import TensorFlowTrainer

    patched = TensorFlowTrainer._maybe_symbolic_build
    TensorFlowTrainer._maybe_symbolic_build = getattr(patched, "_original", patched)
    try:
        with pytest.raises(StopIteration):
            _fit_with_validation_steps(wrap=False, learning_rate=0.1)
    finally:
        TensorFlowTrainer._maybe_symbolic_build = patched


def test_a_schedule_gets_a_float32_step_from_a_keras_3_optimizer_and_hand_calls_pass_through():
    """TF 2.0-2.10's optimizers called a LearningRateSchedule with the step cast to float32; Keras 3
    passes its int64 iterations variable (training-data-analyst keras_flowers_customtrainloop_tf2.1)."""
    import keras

    from estimator_bridge.compat.keras_methods import legacy_schedule_step

    seen = []

    class Schedule(keras.optimizers.schedules.LearningRateSchedule):
        def __call__(self, step):
            step = legacy_schedule_step(step)
            seen.append(step.dtype)
            return 0.1 * 0.5 ** (step // 2)

    optimizer = keras.optimizers.SGD(Schedule())
    variable = keras.Variable(1.0)
    optimizer.apply_gradients([(tf.constant(1.0), variable)])
    assert seen == [tf.float32]
    assert legacy_schedule_step(3) == 3          # by hand: as the program passed it


_TWO_REPLICA_LOOP = r"""
import json
import sys

import numpy as np

import estimator_bridge

estimator_bridge.configure_logical_cpus(2)
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

from estimator_bridge.compat.keras_methods import apply_gradients  # noqa: E402


def run(helper):
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
        model.set_weights([np.linspace(-1, 1, w.size).reshape(w.shape).astype(np.float32)
                           for w in model.get_weights()])
        optimizer = keras.optimizers.SGD(momentum=0.9, nesterov=True, learning_rate=0.01)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        pairs = zip(grads, model.trainable_variables)
        apply_gradients(optimizer, pairs) if helper else optimizer.apply_gradients(pairs)
        return loss

    data = tf.data.Dataset.from_tensor_slices((np.linspace(0, 1, 128).reshape(32, 4).astype(np.float32),
                                               np.zeros((32, 3), np.float32))).batch(8)
    return [float(strategy.reduce("MEAN", strategy.run(step, args=batch), axis=None))
            for batch in strategy.experimental_distribute_dataset(data)]


try:
    print(json.dumps({"losses": run(sys.argv[1] == "helper")}))
except tf.errors.InvalidArgumentError as error:
    print(json.dumps({"error": str(error)[:2000]}))
"""


def _two_replica_loop(mode: str) -> dict:
    """The loop in its own process: its 2-CPU collective group (group key 1) stays registered in the
    process that ran it, and an 8-replica strategy later in the same pytest process could not join
    that key ("group has size 2": the Keras TPU emulation tests failed after this one)."""
    import json
    import subprocess
    import sys

    completed = subprocess.run([sys.executable, "-c", _TWO_REPLICA_LOOP, mode], capture_output=True,
                               text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


# The same loop on TF 2.15 (.oracle/tf215) with tf.keras.optimizers.SGD: _TWO_REPLICA_LOOP_TF215
# below prints these losses; test_two_replica_loop_losses_are_tf215_s checks them live.
TF215_TWO_REPLICA_LOSSES = [0.79256546, 1.0260136, 1.2034338, 1.2224462]

_TWO_REPLICA_LOOP_TF215 = r"""
import json

import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
keras = tf.keras
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with strategy.scope():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
    model.set_weights([np.linspace(-1, 1, w.size).reshape(w.shape).astype(np.float32)
                       for w in model.get_weights()])
    optimizer = keras.optimizers.SGD(momentum=0.9, nesterov=True, learning_rate=0.01)


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


data = tf.data.Dataset.from_tensor_slices((np.linspace(0, 1, 128).reshape(32, 4).astype(np.float32),
                                           np.zeros((32, 3), np.float32))).batch(8)
print(json.dumps({"tensorflow": tf.__version__,
                  "losses": [float(strategy.reduce("MEAN", strategy.run(step, args=batch), axis=None))
                             for batch in strategy.experimental_distribute_dataset(data)]}))
"""


def test_apply_gradients_builds_a_keras_3_optimizer_before_a_per_replica_tf_function():
    """Two replicas, `@tf.function` step run by `strategy.run` from Python: Keras 3 alone fails at the
    first step (placeholder error, pinned below); through the helper the losses equal Keras 2.15's
    (TF215_TWO_REPLICA_LOSSES, checked live by the oracle test below)."""
    assert_close(_two_replica_loop("helper")["losses"], TF215_TWO_REPLICA_LOSSES, rtol=1e-6,
                 what="losses through apply_gradients")
    assert "placeholder" in _two_replica_loop("plain")["error"].lower()  # cut at 2000 characters: the node name


@pytest.mark.oracle
def test_two_replica_loop_losses_are_tf215_s(tmp_path):
    """The typed TF 2.15 losses above are what TF 2.15 computes for this loop, live."""
    script = tmp_path / "two_replica_loop_tf215.py"
    script.write_text(_TWO_REPLICA_LOOP_TF215)
    oracle = run_json(oracle_python("tf215"), script)
    assert oracle["tensorflow"].startswith("2.15")
    assert_close(oracle["losses"], TF215_TWO_REPLICA_LOSSES, rtol=1e-6, what="TF 2.15 live losses")


def test_apply_gradients_drops_keras_2s_op_name_and_refuses_unaggregated_gradients():
    import keras

    from estimator_bridge.compat.keras_methods import apply_gradients

    variable = keras.Variable(1.0)
    optimizer = keras.optimizers.SGD(0.5)
    apply_gradients(optimizer, [(tf.constant(1.0), variable)], name="step", experimental_aggregate_gradients=True)
    assert float(variable.numpy()) == 0.5
    with pytest.raises(NotImplementedError, match="aggregate"):
        apply_gradients(optimizer, [(tf.constant(1.0), variable)], experimental_aggregate_gradients=False)


# TF 1.15 (.oracle/tf115, CPU) running this model from these weights with `fit(x, y, steps_per_epoch=5,
# epochs=3, shuffle=False)`, twice, identical: tests/migrate/programs/keras_tf1_fit_arrays.py
# (tests/migrate/test_keras_tf1_fit.py checks these values against TF 1.15, live).
TF115_FULL_ARRAY_LOSSES = [0.9342163681983948, 0.6967511653900147, 0.5803091406822205]


def _iris_like():
    rng = np.random.RandomState(0)
    y = rng.randint(0, 3, 120).astype(np.int32)
    x = (np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])[y]
         + rng.normal(0, 0.3, (120, 4))).astype(np.float32)
    return x, y


def _iris_model():
    import keras

    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(10, activation="relu"),
                              keras.layers.Dense(3, activation="softmax")])
    rng = np.random.RandomState(1)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    model.compile(keras.optimizers.Adagrad(learning_rate=0.1), "sparse_categorical_crossentropy")
    return model


def test_fit_tf1_feeds_the_full_arrays_at_every_step_as_tf_1_15s_keras_did():
    """tensorflow/tpu classification_iris_data_with_keras.ipynb (TF 1.14): `fit(x, y, steps_per_epoch=5)`
    without batch_size. TF 1.15 (graph mode, no strategy) ran 5 steps on all 120 rows per epoch; Keras 3
    runs 5 batches of 24. The helper reproduces TF 1.15: the losses below were printed by TF 1.15
    running this model from these weights on these arrays (measured 2026-11-25, .oracle/tf115)."""
    from estimator_bridge.compat.keras_methods import fit_tf1

    x, y = _iris_like()
    history = fit_tf1(_iris_model(), x, y, steps_per_epoch=5, epochs=3, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], TF115_FULL_ARRAY_LOSSES, rtol=1e-5)
    as_written = _iris_model().fit(x, y, steps_per_epoch=5, epochs=3, verbose=0, shuffle=False)
    assert not np.allclose(as_written.history["loss"], TF115_FULL_ARRAY_LOSSES, rtol=1e-3)


def test_fit_tf1_feeds_the_full_arrays_whatever_the_batch_size_says():
    """TF 1.15's steps mode ignored `batch_size` for training (tensorflow/tpu
    autoencoder_embeddings.ipynb, 2019: `batch_size=128, steps_per_epoch=468`): the same losses as
    without it (tests/migrate/test_keras_tf1_fit_batch_size.py measures it against TF 1.15, live)."""
    from estimator_bridge.compat.keras_methods import fit_tf1

    x, y = _iris_like()
    for args, kwargs in (((24,), {}), ((), {"batch_size": 24})):
        history = fit_tf1(_iris_model(), x, y, *args, steps_per_epoch=5, epochs=3, verbose=0, shuffle=False, **kwargs)
        np.testing.assert_allclose(history.history["loss"], TF115_FULL_ARRAY_LOSSES, rtol=1e-5)


def test_fit_tf1_leaves_datasets_and_strategy_models_as_keras_runs_them():
    from estimator_bridge.compat.keras_methods import fit_tf1

    x, y = _iris_like()
    with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
        model = _iris_model()
    ours = fit_tf1(model, x, y, steps_per_epoch=5, epochs=2, verbose=0, shuffle=False)
    theirs = _iris_model().fit(x, y, steps_per_epoch=5, epochs=2, verbose=0, shuffle=False)
    np.testing.assert_allclose(ours.history["loss"], theirs.history["loss"], rtol=1e-6)


def test_legacy_lr_schedule_turns_a_floating_tensor_into_its_float_and_keeps_the_rest():
    import tensorflow as tf

    from estimator_bridge.compat.keras_methods import legacy_lr_schedule

    @tf.function
    def tensor_schedule(epoch):
        return 0.5 * tf.cast(epoch, tf.float32) + 0.25

    def two_argument_schedule(epoch, lr):
        return lr * 0.5

    schedule = legacy_lr_schedule(tensor_schedule)
    assert schedule(1) == 0.75 and type(schedule(1)) is float
    assert legacy_lr_schedule(two_argument_schedule)(0, 0.5) == 0.25
    assert legacy_lr_schedule(lambda epoch: 3)(0) == 3                  # Keras judges non-floats
    try:
        schedule(1, 0.1)                                               # Keras 3 tries (epoch, lr) first
    except TypeError:
        pass
    else:
        raise AssertionError("a one-argument schedule must still refuse two arguments")
