"""estimator_bridge.layers, in process: TF1 naming per graph, UPDATE_OPS, reuse, clear errors.

Expected names and counts come from the TF 1.15 golden (`goldens/layers_tf115.json`), built
by the same case functions these tests call (`goldens/layers_recorder.py`).
"""

import importlib.util
import inspect
import json

import numpy as np
import pytest
import tensorflow as tf

from estimator_bridge import layers
from tests.support.oracles import REPO_ROOT, oracle_python, run_json

tf1 = tf.compat.v1
GOLDENS = REPO_ROOT / "tests" / "estimator_bridge" / "goldens"
with open(GOLDENS / "layers_tf115.json") as golden_stream:
    GOLDEN = json.load(golden_stream)["cases"]


def load_recorder():
    spec = importlib.util.spec_from_file_location("layers_recorder", GOLDENS / "layers_recorder.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.select_flavour("bridge-graph")
    return module


RECORDER = load_recorder()


def variable_names_and_shapes():
    return [[v.name[:-2], v.shape.as_list()] for v in tf1.global_variables()]


@pytest.mark.parametrize("case", ["dense", "dense_names", "conv2d_pool", "batch_norm_fused", "layer_norm"])
def test_names_restart_in_every_new_graph(case):
    build = getattr(RECORDER, f"case_{case}")
    for _ in range(2):  # the second graph must not continue the first one's counters
        with tf.Graph().as_default():
            build(tf1, layers)
            assert variable_names_and_shapes() == GOLDEN[case]["variables"]


def test_two_unnamed_layers_are_uniquified_like_tf1():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 4])
        layers.dense(x, 3)
        layers.dense(x, 3)
        with tf1.variable_scope("tower"):
            layers.dense(x, 3)
        names = [v.name for v in tf1.global_variables()]
    assert names == ["dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0",
                     "tower/dense/kernel:0", "tower/dense/bias:0"]


def test_a_named_layer_without_reuse_cannot_be_built_twice():
    # TF1 behaviour: name= opens variable_scope(name) as is, so get_variable refuses a duplicate.
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 4])
        layers.dense(x, 2, name="head")
        with pytest.raises(ValueError, match="head/kernel already exists"):
            layers.dense(x, 2, name="head")


def test_reuse_returns_the_same_variables_and_counts_the_regularizer_once():
    golden = GOLDEN["dense_names"]
    with tf.Graph().as_default():
        RECORDER.case_dense_names(tf1, layers)
        assert variable_names_and_shapes() == golden["variables"]
        losses = tf1.get_collection(tf1.GraphKeys.REGULARIZATION_LOSSES)
        assert len(losses) == len(golden["regularization"])


def test_batch_norm_training_adds_its_moving_average_updates_to_update_ops():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 3, 3, 2])
        layers.batch_normalization(x, training=True)
        updates = tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)
        assert len(updates) == GOLDEN["batch_norm_fused"]["update_ops"]
        assert [op.name.split("/")[0] for op in updates] == ["batch_normalization"] * 2
        moving = [v.name for v in tf1.global_variables() if not v.trainable]
        assert moving == ["batch_normalization/moving_mean:0",
                          "batch_normalization/moving_variance:0"]


def test_batch_norm_inference_adds_no_update_ops():
    with tf.Graph().as_default():
        RECORDER.case_batch_norm_inference(tf1, layers)
        assert len(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)) == \
            GOLDEN["batch_norm_inference"]["update_ops"] == 0


def test_batch_norm_moving_statistics_move_only_when_update_ops_run():
    with tf.Graph().as_default():
        x = tf1.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2))
        layers.batch_normalization(x, training=True)
        moving_mean = [v for v in tf1.global_variables() if "moving_mean" in v.name][0]
        updates = tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            before = session.run(moving_mean)
            session.run(updates)
            after = session.run(moving_mean)
    np.testing.assert_array_equal(before, np.zeros(2, np.float32))
    assert np.all(after != 0)


def test_dropout_is_identity_unless_training():
    with tf.Graph().as_default():
        x = tf1.ones([4, 5])
        kept = layers.dropout(x, rate=0.5)  # TF1 default: training=False
        with tf1.Session() as session:
            np.testing.assert_array_equal(session.run(kept), np.ones([4, 5], np.float32))


@pytest.mark.parametrize("option", [{"renorm": True}, {"virtual_batch_size": 2},
                                    {"adjustment": lambda shape: (1.0, 0.0)}])
def test_unsupported_batch_norm_options_fail_naming_the_option(option):
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 3])
        with pytest.raises(NotImplementedError, match=list(option)[0]):
            layers.batch_normalization(x, **option)


def test_dense_errors_name_the_layer_and_the_problem():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"dense.*min_ndim=2, found ndim=1"):
            layers.dense(tf1.placeholder(tf.float32, [4]), 2)
        with pytest.raises(ValueError, match=r"last dimension .* should be defined"):
            layers.dense(tf1.placeholder(tf.float32, [4, None]), 2)
        with pytest.raises(TypeError, match="non-floating point dtype int32"):
            layers.dense(tf1.placeholder(tf.int32, [4, 3]), 2)


def test_conv2d_rejects_a_wrong_rank():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="expected ndim=4, found ndim=3"):
            layers.conv2d(tf1.placeholder(tf.float32, [2, 5, 3]), 4, 3)


def test_layers_build_on_get_variable_so_a_creator_scope_sees_tf1_names():
    requested = []

    def creator(next_creator, **kwargs):
        requested.append(kwargs["name"])
        return next_creator(**kwargs)

    with tf.Graph().as_default(), tf.variable_creator_scope(creator):
        x = tf1.placeholder(tf.float32, [None, 4, 4, 1])
        net = layers.conv2d(x, 2, 3)
        net = layers.batch_normalization(net, training=True)
        layers.dense(layers.flatten(net), 1)
    assert requested == [
        "conv2d/kernel", "conv2d/bias", "batch_normalization/gamma", "batch_normalization/beta",
        "batch_normalization/moving_mean", "batch_normalization/moving_variance",
        "dense/kernel", "dense/bias"]


def test_scope_initializer_is_used_when_no_kernel_initializer_is_given():
    # TF1 layers fell back to the enclosing variable_scope's initializer (get_variable's rule).
    with tf.Graph().as_default():
        with tf1.variable_scope("model", initializer=tf1.constant_initializer(0.5)):
            layers.dense(tf1.placeholder(tf.float32, [None, 3]), 2)
        kernel, bias = tf1.global_variables()
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            np.testing.assert_array_equal(session.run(kernel), np.full([3, 2], 0.5, np.float32))
            np.testing.assert_array_equal(session.run(bias), np.zeros([2], np.float32))


# ----------------------------------------------------------------------------- object API


def test_layer_objects_share_variables_across_calls_and_uniquify_like_tf1():
    with tf.Graph().as_default():
        RECORDER.case_layer_objects(tf1, layers)
        assert variable_names_and_shapes() == GOLDEN["layer_objects"]["variables"]
        assert len(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)) == \
            GOLDEN["layer_objects"]["update_ops"]


def test_a_layer_object_reports_its_variables_updates_and_scope():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 4])
        norm = layers.BatchNormalization()
        with pytest.raises(ValueError, match="has not been used yet"):
            norm.scope_name
        norm(x, training=True)
        norm(x, training=False)
        assert norm.scope_name == "batch_normalization"
        assert [v.name for v in norm.trainable_variables] == [
            "batch_normalization/gamma:0", "batch_normalization/beta:0"]
        assert [v.name for v in norm.non_trainable_variables] == [
            "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
        assert norm.updates == tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)
        assert len(norm.updates) == 2


def test_layer_object_constructor_errors_name_the_arguments():
    with pytest.raises(TypeError, match=r"Dense missing required arguments: \['units'\]"):
        layers.Dense()
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['unit'\\]"):
        layers.Dense(unit=3)


# TF 1.15's own signature of tf.contrib.layers.layer_norm, printed by oracle A.
_TF115_LAYER_NORM_SIGNATURE = (
    "import inspect, json, tensorflow as tf; "
    "print(json.dumps({'parameters': [[p.name, repr(p.default)] for p in "
    "inspect.signature(tf.contrib.layers.layer_norm).parameters.values()]}))")


@pytest.mark.oracle
def test_layer_norm_has_the_signature_of_tf_1_15_contrib():
    expected = run_json(oracle_python("tf115"), "-c", _TF115_LAYER_NORM_SIGNATURE)["parameters"]
    ours = [[p.name, repr(p.default)] for p in inspect.signature(layers.layer_norm).parameters.values()]
    assert ours == expected


def test_layer_norm_rejects_axes_beyond_the_rank_naming_both():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 4])
        with pytest.raises(ValueError, match=r"begin_norm_axis \(2\) must be < rank\(inputs\) \(2\)"):
            layers.layer_norm(x, begin_norm_axis=2)


def test_layer_norm_needs_fully_defined_parameter_dimensions():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [2, None])
        with pytest.raises(ValueError, match=r"shape\(inputs\)\[-1:\] is not fully defined"):
            layers.layer_norm(x)


def test_a_subclass_overriding_keras1_internals_is_refused_not_silently_ignored():
    """A Keras-1 hook the layer functions never call back (`call` here) would be ignored: refused.
    BatchNormalization's `_moments` is honoured (real_patterns/batch_norm_subclass.py)."""
    with pytest.raises(TypeError, match=r"MyDense subclasses "
                                        r"tf.layers.Dense and overrides \['build', 'call'\]"):
        class MyDense(layers.Dense):  # noqa: F841
            def build(self, input_shape):
                return None

            def call(self, inputs):
                return inputs

    class TpuBatchNormalization(layers.BatchNormalization):
        def _moments(self, inputs, reduction_axes, keep_dims):
            return super()._moments(inputs, reduction_axes, keep_dims)

    assert TpuBatchNormalization(fused=False).name == "tpu_batch_normalization"

    class NamedBatchNormalization(layers.BatchNormalization):  # only __init__: fine
        def __init__(self, name="tpu_batch_normalization", **kwargs):
            super().__init__(name=name, **kwargs)

    assert NamedBatchNormalization().name == "tpu_batch_normalization"


def test_an_unnamed_subclass_is_named_from_its_own_class_as_in_tf115():
    """Keras-1 named a layer `to_snake_case(type(self).__name__)`: a subclass's variables live
    under its own name (EfficientNet checkpoints: `tpu_batch_normalization/gamma`)."""
    class TpuBatchNormalization(layers.BatchNormalization):
        pass

    class SeparableConv2DTranspose(layers.Conv2D):
        pass

    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [2, 4, 4, 3])
        TpuBatchNormalization()(x, training=True)
        SeparableConv2DTranspose(2, 3)(x)
        layers.BatchNormalization()(x, training=True)
        names = sorted(v.op.name for v in tf1.global_variables())
    assert names == ["batch_normalization/beta", "batch_normalization/gamma",
                     "batch_normalization/moving_mean", "batch_normalization/moving_variance",
                     "separable_conv2d_transpose/bias", "separable_conv2d_transpose/kernel",
                     "tpu_batch_normalization/beta", "tpu_batch_normalization/gamma",
                     "tpu_batch_normalization/moving_mean", "tpu_batch_normalization/moving_variance"]
