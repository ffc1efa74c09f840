"""TF 2.x model_to_estimator's object-based checkpoint keys for the bridge's TF1 names (pure table test).

The keys are those TF 2.15 + tf-estimator-nightly wrote for real_patterns/keras_model_to_estimator.py
(Sequential Dense(16)-Dense(3), Adam): read with tf.train.list_variables from its model.ckpt-0. The
resumed numbers are pinned by tests/estimator_bridge/test_model_to_estimator.py.
"""

from estimator_bridge.keras_checkpoint_names import GLOBAL_STEP, is_object_based, object_keys

LAYERS = [("dense", ["kernel", "bias"]), ("dense_1", ["kernel", "bias"])]
V = "/.ATTRIBUTES/VARIABLE_VALUE"


def test_tf_keras_names_under_tf1s_training_scope():
    keys = object_keys(["dense/kernel", "dense_1/bias", "training/Adam/dense/kernel/m",
                        "training/Adam/dense_1/bias/v", "training/Adam/beta_1", "global_step"], LAYERS)
    assert keys == {
        "dense/kernel": "layer_with_weights-0/kernel" + V,
        "dense_1/bias": "layer_with_weights-1/bias" + V,
        "training/Adam/dense/kernel/m": "layer_with_weights-0/kernel/.OPTIMIZER_SLOT/optimizer/m" + V,
        "training/Adam/dense_1/bias/v": "layer_with_weights-1/bias/.OPTIMIZER_SLOT/optimizer/v" + V,
        "training/Adam/beta_1": "optimizer/beta_1" + V,
        "global_step": GLOBAL_STEP,
    }


def test_keras_3_optimizer_names_to_the_legacy_slots():
    keys = object_keys(["adam_2/dense_kernel_momentum", "adam_2/dense_1_bias_velocity", "adam_1/learning_rate",
                        "adam_2/iteration", "sgd/dense_kernel_momentum"], LAYERS)
    assert keys == {
        "adam_2/dense_kernel_momentum": "layer_with_weights-0/kernel/.OPTIMIZER_SLOT/optimizer/m" + V,
        "adam_2/dense_1_bias_velocity": "layer_with_weights-1/bias/.OPTIMIZER_SLOT/optimizer/v" + V,
        "adam_1/learning_rate": "optimizer/learning_rate" + V,
        "adam_2/iteration": GLOBAL_STEP,
        "sgd/dense_kernel_momentum": "layer_with_weights-0/kernel/.OPTIMIZER_SLOT/optimizer/momentum" + V,
    }


def test_only_object_based_checkpoints_are_mapped():
    assert is_object_based({"_CHECKPOINTABLE_OBJECT_GRAPH": [], "layer_with_weights-0/kernel" + V: [4, 16]})
    assert not is_object_based({"dense/kernel": [4, 16], "global_step": []})
