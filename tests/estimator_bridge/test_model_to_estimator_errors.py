"""model_to_estimator's refusals say what, where and how to fix (Keras 3 models, in process).

TF 2.15 raised on the first three (its own messages, kept); the bridge adds the ones it cannot
run: a subclassed model (TF 2.15 cloned it from its config; the bridge replays a layer graph), a
compiled metric that keeps its own state (AUC: the bridge's eval metrics are means of per-example
values), sample-weighted features, a gs:// model path.
"""

import keras
import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge
from estimator_bridge.keras_estimator import UnsupportedKerasModel


def _model(metrics=("accuracy",), compiled=True):
    model = keras.Sequential([keras.Input((4,), name="x"), keras.layers.Dense(3, activation="softmax")])
    if compiled:
        model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy", metrics=list(metrics))
    return model


def _input_fn(features=None):
    def input_fn():
        rows = np.zeros((8, 4), np.float32)
        return tf.data.Dataset.from_tensor_slices((features or {"x": rows}, np.zeros(8, np.int64))).batch(4)
    return input_fn


def test_neither_or_both_model_arguments(tmp_path):
    with pytest.raises(ValueError, match="Either `keras_model` or `keras_model_path`"):
        estimator_bridge.model_to_estimator(model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="but not both"):
        estimator_bridge.model_to_estimator(keras_model=_model(), keras_model_path="m.keras")


def test_an_uncompiled_model_says_compile_it_first(tmp_path):
    with pytest.raises(UnsupportedKerasModel, match=r"has not been compiled yet.*model.compile\("):
        estimator_bridge.model_to_estimator(keras_model=_model(compiled=False), model_dir=str(tmp_path))


def test_a_subclassed_model_names_the_model_and_what_to_build_instead(tmp_path):
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(3)

        def call(self, x):
            return self.dense(x)

    net = Net()
    net.compile(optimizer="sgd", loss="mse")
    with pytest.raises(UnsupportedKerasModel, match=r"Net is a subclassed keras Model.*keras.Input"):
        estimator_bridge.model_to_estimator(keras_model=net, model_dir=str(tmp_path))


def test_a_stateful_metric_names_itself_and_the_eval_metric_ops_to_write(tmp_path):
    estimator = estimator_bridge.model_to_estimator(
        keras_model=_model(metrics=[keras.metrics.AUC(name="auc")]), model_dir=str(tmp_path))
    with pytest.raises(UnsupportedKerasModel, match=r"compiled metric 'auc' \(AUC\) keeps its own state.*eval_metric_ops"):
        estimator.evaluate(_input_fn(), steps=1)


def test_features_missing_the_input_name_list_expected_and_given_keys(tmp_path):
    estimator = estimator_bridge.model_to_estimator(keras_model=_model(), model_dir=str(tmp_path))
    with pytest.raises(KeyError, match=r"Expected keys: \{'x'\}.*Missed keys: \{'x'\}"):
        estimator.train(_input_fn({"y": np.zeros((8, 4), np.float32)}), steps=1)


def test_sample_weighted_features_say_how_to_weight_instead(tmp_path):
    estimator = estimator_bridge.model_to_estimator(keras_model=_model(), model_dir=str(tmp_path))
    features = {"features": {"x": np.zeros((8, 4), np.float32)}, "sample_weights": np.ones(8, np.float32)}
    with pytest.raises(UnsupportedKerasModel, match="sample-weighted losses"):
        estimator.train(_input_fn(features), steps=1)


def test_a_gcs_model_path_says_copy_it_locally(tmp_path):
    with pytest.raises(UnsupportedKerasModel, match=r"local files only.*tf.io.gfile.copy"):
        estimator_bridge.model_to_estimator(keras_model_path="gs://bucket/model.h5", model_dir=str(tmp_path))


def test_an_unknown_checkpoint_format(tmp_path):
    with pytest.raises(ValueError, match='one of "checkpoint" or "saver"'):
        estimator_bridge.model_to_estimator(keras_model=_model(), model_dir=str(tmp_path), checkpoint_format="h5")


def test_labels_one_rank_below_a_size_1_output_follow_the_programs_tensorflow():
    """TF 2.x's Keras squeezed the output ((8, 1) -> (8,): TF 2.15's tutorial model lost 12.53 at
    its first step), TF 1.15's model_to_estimator gave the labels the axis (7.2e-7): measured with
    real_patterns/keras_model_to_estimator.py's tutorial form on both oracles."""
    from estimator_bridge.keras_estimator import same_ranks

    labels, output = tf.zeros([8], tf.int64), tf.zeros([8, 1])
    target, squeezed = same_ranks(labels, output, tf1=False)
    assert target.shape == [8] and squeezed.shape == [8]
    expanded, kept = same_ranks(labels, output, tf1=True)
    assert expanded.shape == [8, 1] and kept.shape == [8, 1]
    same = same_ranks(tf.zeros([8, 1]), tf.zeros([8, 3]), tf1=False)
    assert [t.shape for t in same] == [[8, 1], [8, 3]]


def test_a_keras_3_model_trains_evaluates_and_predicts_in_process(tmp_path):
    """The in-process path every refusal above shares (the numbers are the oracle tests')."""
    model = _model()
    estimator = estimator_bridge.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    estimator.train(_input_fn(), steps=2)
    evaluation = estimator.evaluate(_input_fn(), steps=2)
    assert set(evaluation) == {"accuracy", "loss", "global_step"} and evaluation["global_step"] == 2
    predictions = list(estimator.predict(_input_fn()))
    assert len(predictions) == 8 and set(predictions[0]) == {model.layers[-1].name}  # the output's layer
    assert (tmp_path / "keras" / "keras_model.ckpt.index").exists()
