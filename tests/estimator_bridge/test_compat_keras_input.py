"""`tf.keras.Input(tensor=...)` as TF 1.x read it (estimator_bridge/compat/keras_input.py)."""

import pytest
import tensorflow as tf

from estimator_bridge.compat.keras_input import Input
from estimator_bridge.compat.namespace import tf1_namespace

tf1 = tf.compat.v1


def test_a_graph_tensor_is_returned_itself_and_keras_layers_run_on_it():
    with tf.Graph().as_default():
        features = tf1.placeholder(tf.float32, [2, 3])
        assert Input(tensor=features) is features
        outputs = tf.keras.layers.Dense(4)(Input(tensor=features))
        assert outputs.shape.as_list() == [2, 4]


def test_tf115_positional_order_reaches_keras3_by_keyword():
    """TF 1.15: Input(shape, batch_size, name, dtype, ...); Keras 3 puts dtype third."""
    symbolic = Input((3,), 5, "images", "float16")
    assert tuple(symbolic.shape) == (5, 3)
    assert symbolic.dtype == "float16"
    assert symbolic.name.startswith("images")


def test_a_dtype_that_contradicts_the_tensor_is_an_error():
    with tf.Graph().as_default():
        features = tf1.placeholder(tf.float32, [2, 3])
        with pytest.raises(ValueError, match="the tensor is float32"):
            Input(tensor=features, dtype="int32")


def test_ragged_inputs_are_refused_with_the_alternative():
    with pytest.raises(NotImplementedError, match="no ragged inputs"):
        Input(shape=(None,), ragged=True)


def test_the_runner_serves_it_under_tf_keras_and_tf_contrib_keras():
    """TF 1.15's tf.contrib.keras re-exported tf.keras. The runner's Keras is Keras 2 (tf-keras), whose
    own Input makes a functional KerasTensor of a graph tensor in a model_fn the bridge traces
    (test_keras_layers_in_model_fn runs tensorflow/tpu's cifar_keras pattern under the runner)."""
    tf_ = tf1_namespace()
    assert tf_.contrib.keras is tf_.keras
    assert tf_.keras.Input is tf_.keras.layers.Input is tf_.contrib.keras.layers.Input is Input
    assert tf_.keras.layers.Dense is tf.keras.layers.Dense
    assert tf_.contrib.keras.callbacks.ModelCheckpoint is tf.keras.callbacks.ModelCheckpoint
