"""estimator_bridge.layers inside tf.function, set up as the bridge sets up a model_fn.

The bridge traces model_fn with `tf.function(autograph=False)`, routes variable creation through
its name-keyed `VariableCache`, and gives every trace fresh v1 collections (`begin_trace`).
Then every retrace must ask for the same TF1 names (`dense`, not `dense_2`), hit the cache
instead of creating variables, and see its own UPDATE_OPS.
"""

import json

import numpy as np
import tensorflow as tf

from estimator_bridge import layers
from estimator_bridge.runtime.variables import VariableCache
from tests.support.oracles import REPO_ROOT

tf1 = tf.compat.v1
with open(REPO_ROOT / "tests" / "estimator_bridge" / "goldens" / "layers_tf115.json") as stream:
    GOLDEN = json.load(stream)["cases"]


def small_model(images):
    """conv2d -> batch norm (training) -> pooling -> flatten -> dense, dense."""
    net = layers.conv2d(images, 2, 3, padding="same",
                        kernel_initializer=tf1.constant_initializer(0.1))
    net = layers.batch_normalization(net, training=True)
    net = layers.max_pooling2d(net, 2, 2)
    net = layers.dense(layers.flatten(net), 3, kernel_initializer=tf1.constant_initializer(0.2))
    return layers.dense(net, 1, kernel_initializer=tf1.constant_initializer(0.3))


def test_every_trace_asks_for_the_same_tf1_names_and_reuses_the_cached_variables():
    cache = VariableCache(strategy=None)
    traces = []

    @tf.function(autograph=False)
    def step(images):
        cache.begin_trace()
        with cache.scope():
            outputs = small_model(images)
            traces.append({
                "variables": [v.name for v in tf1.global_variables()],
                "update_ops": len(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)),
            })
            with tf1.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
                return tf.identity(outputs)

    first = step(tf.ones([2, 4, 4, 1]))
    second = step(tf.ones([3, 4, 4, 1]))  # another batch size: a second trace

    assert len(traces) == 2
    assert traces[0] == traces[1]
    assert traces[0]["variables"] == [
        "conv2d/kernel:0", "conv2d/bias:0", "batch_normalization/gamma:0",
        "batch_normalization/beta:0", "batch_normalization/moving_mean:0",
        "batch_normalization/moving_variance:0", "dense/kernel:0", "dense/bias:0",
        "dense_1/kernel:0", "dense_1/bias:0"]
    assert traces[0]["update_ops"] == GOLDEN["batch_norm_fused"]["update_ops"]
    assert list(cache.variables) == [name[:-2] for name in traces[0]["variables"]]
    # Same inputs per row, batch statistics identical: the rows agree across the two traces.
    np.testing.assert_allclose(first.numpy()[0], second.numpy()[0], rtol=1e-6)


def test_update_ops_run_once_per_call_inside_the_function():
    cache = VariableCache(strategy=None)

    @tf.function(autograph=False)
    def step(images):
        cache.begin_trace()
        with cache.scope():
            outputs = layers.batch_normalization(images, training=True, momentum=0.5)
            with tf1.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
                return tf.identity(outputs)

    images = tf.constant(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2))
    step(images)
    moving_mean = cache["batch_normalization/moving_mean"]
    after_one = moving_mean.numpy().copy()
    step(images)
    after_two = moving_mean.numpy()
    batch_mean = images.numpy().mean(axis=(0, 1, 2))
    # momentum 0.5 from zeros: 0.5 * mean after one call, 0.75 * mean after two.
    np.testing.assert_allclose(after_one, 0.5 * batch_mean, rtol=1e-6)
    np.testing.assert_allclose(after_two, 0.75 * batch_mean, rtol=1e-6)


def _graph_outputs(build):
    """`build(images)` in a fresh TF1 graph: its output values and variable names."""
    with tf.Graph().as_default():
        images = tf.constant(np.linspace(-1.0, 1.0, 2 * 6 * 6 * 3, dtype=np.float32).reshape(2, 6, 6, 3))
        outputs = build(images)
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            values = session.run(outputs)
        return values, sorted(v.op.name for v in tf1.global_variables())


def objects_and_transposes(images):
    """A tf.layers object and the transposed convolutions, as EfficientNet-style Keras code uses them."""
    stem = layers.Conv2D(2, 3, padding="same", kernel_initializer=tf1.constant_initializer(0.1))
    net = layers.conv2d_transpose(stem(images), 2, 3, kernel_initializer=tf1.constant_initializer(0.2))
    return layers.conv3d_transpose(tf.expand_dims(net, 1), 1, 1, kernel_initializer=tf1.constant_initializer(0.3))


def test_code_autograph_converts_calls_the_layers_as_python_with_the_same_result():
    """tensorflow/tpu's EfficientNet (2019) calls `tf.layers.Conv2D` objects inside a
    `tf.keras.Model.call`, which Keras converts with AutoGraph in graph mode. AutoGraph converted
    whatever it called outside the `tensorflow` package, so the bridge's `conv2d` (which passes
    `**locals()` on) got AutoGraph's own `fscope` local and failed with "unexpected keyword
    argument 'fscope'"; TF 1.15's tf.layers, inside `tensorflow`, were never converted."""
    for build in (small_model, objects_and_transposes):
        plain = _graph_outputs(build)
        converted = _graph_outputs(tf.autograph.to_graph(build))
        np.testing.assert_array_equal(converted[0], plain[0])
        assert converted[1] == plain[1]
