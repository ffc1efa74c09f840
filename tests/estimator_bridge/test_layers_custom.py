"""`tf.layers.Layer` / `InputSpec` for user-defined TF1 layers (estimator_bridge/layers/custom.py).

The oracle test is real_patterns/custom_tf_layers.py (test_real_patterns.py); these pin the rules
one by one in plain graphs.
"""

import pytest
import tensorflow as tf

from estimator_bridge import layers

tf1 = tf.compat.v1


class Scale(layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", [int(input_shape[-1])], initializer=tf1.ones_initializer())

    def call(self, inputs):
        return inputs * self.kernel


def names():
    return sorted(v.op.name for v in tf1.global_variables())


def test_scope_from_the_class_name_uniquified_at_the_first_call_and_reused_after():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [2, 3])
        first, second = Scale(), Scale()
        first(x), first(x), second(x)
        assert names() == ["scale/kernel", "scale_1/kernel"]
        assert (first.scope_name, second.scope_name, second.name) == ("scale", "scale_1", "scale_1")
        assert first.built and len(first.trainable_variables) == 1


def test_add_weight_before_any_call_opens_the_scope_where_the_layer_is():
    class Eager(layers.Layer):
        def __init__(self):
            super().__init__(name="eager")
            with tf1.variable_scope("made_in_init"):
                pass
            self.bias = self.add_variable("bias", [2])

        def call(self, inputs):
            return inputs + self.bias

    with tf.Graph().as_default():
        with tf1.variable_scope("outer"):
            layer = Eager()
        layer(tf1.placeholder(tf.float32, [1, 2]))
        assert names() == ["outer/eager/bias"]


def test_non_trainable_layers_make_non_trainable_weights_and_on_read_must_not_train():
    with tf.Graph().as_default():
        frozen = Scale(trainable=False)
        frozen(tf1.placeholder(tf.float32, [1, 2]))
        assert frozen.trainable_variables == [] and len(frozen.non_trainable_variables) == 1
        with pytest.raises(ValueError, match="ON_READ only for non-trainable"):
            Scale().add_weight("w", [1], trainable=True,
                               synchronization=tf.VariableSynchronization.ON_READ)


def test_updates_go_to_update_ops_after_the_call_and_losses_to_regularization_losses():
    class Counting(layers.Layer):
        def build(self, input_shape):
            self.count = self.add_weight("count", [], trainable=False, initializer=tf1.zeros_initializer(),
                                         regularizer=lambda w: 0.5 * w)

        def call(self, inputs):
            self.add_update(tf1.assign_add(self.count, 1.0))
            self.add_loss(tf.reduce_sum(inputs))
            return inputs

    with tf.Graph().as_default():
        layer = Counting()
        layer(tf1.placeholder(tf.float32, [1, 2]))
        assert len(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)) == 1
        assert len(tf1.get_collection(tf1.GraphKeys.REGULARIZATION_LOSSES)) == 2
        assert len(layer.updates) == 1 and len(layer.losses) == 1


def test_input_spec_is_checked_with_tf115_wording():
    class Matrix(Scale):
        def __init__(self):
            super().__init__()
            self.input_spec = layers.InputSpec(ndim=2)

    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
            Matrix()(tf1.placeholder(tf.float32, [1, 2, 3]))


def test_unknown_constructor_keywords_are_refused():
    with pytest.raises(TypeError, match="Keyword argument not understood: 'units'"):
        Scale(units=3)


def test_as_a_mixin_beside_a_keras_class_the_keras_class_owns_the_object():
    """tensorflow/tpu EfficientNet: class DepthwiseConv2D(tf.keras.layers.DepthwiseConv2D, tf.layers.Layer)."""
    class DepthwiseConv2D(tf.keras.layers.DepthwiseConv2D, layers.Layer):
        pass

    layer = DepthwiseConv2D(3, padding="same")
    assert layer(tf.zeros([1, 4, 4, 2])).shape == (1, 4, 4, 2)
    assert not hasattr(layer, "_given_scope")
