"""KerasArgumentSpellings: Keras 2 optimizer keywords -> their Keras 3 names."""

from tests.migrate.codemods.support import assert_codemod

NAME = "KerasArgumentSpellings"


def test_lr_is_renamed_and_a_keyword_without_equivalent_is_reported():
    assert_codemod(NAME, """
        import tensorflow as tf

        opt = tf.keras.optimizers.Adam(lr=0.001)
        opt = tf.keras.optimizers.SGD(0.1, decay=0.01)
        """, """
        import tensorflow as tf

        opt = tf.keras.optimizers.Adam(learning_rate=0.001)
        opt = tf.keras.optimizers.SGD(0.1, decay=0.01)
        """, findings=["4:7 MIG201"])


def test_mixed_precision_experimental_is_keras_3s_mixed_precision():
    # google-research/fixmatch imagenet/fixmatch.py (heldout3): the bfloat16 policy of a TF 2.2 TPU program
    assert_codemod(NAME, """
        import tensorflow as tf

        policy = tf.keras.mixed_precision.experimental.Policy('mixed_bfloat16')
        tf.keras.mixed_precision.experimental.set_policy(policy)
        current = tf.keras.mixed_precision.experimental.global_policy()
        scaled = tf.keras.mixed_precision.experimental.Policy('mixed_float16', loss_scale=128)
        """, """
        import tensorflow as tf

        policy = tf.keras.mixed_precision.Policy('mixed_bfloat16')
        tf.keras.mixed_precision.set_global_policy(policy)
        current = tf.keras.mixed_precision.global_policy()
        scaled = tf.keras.mixed_precision.experimental.Policy('mixed_float16', loss_scale=128)
        """, findings=["6:10 MIG201"])


def test_keras_batch_norm_becomes_the_class_with_keras_2s_moving_variance():
    """training-data-analyst's keras_flowers_gputputpupod_tf2.1 (68ccb3f7a): Keras 3 averages the
    biased batch variance into the moving variance, Keras 1.15-2.15 the fused kernel's unbiased one
    (estimator_bridge/compat/keras_batch_norm.py; oracle: tests/estimator_bridge/
    test_compat_keras_batch_norm.py). tf.layers' own class is another rewrite's."""
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow.keras.layers import BatchNormalization
        from tensorflow.keras import layers

        a = tf.keras.layers.BatchNormalization(momentum=0.9)
        b = BatchNormalization()
        c = layers.BatchNormalization(axis=1)
        """, """
        import tensorflow as tf
        from estimator_bridge.compat.keras_batch_norm import BatchNormalization
        from tensorflow.keras import layers
        import estimator_bridge.compat.keras_batch_norm

        a = estimator_bridge.compat.keras_batch_norm.BatchNormalization(momentum=0.9)
        b = BatchNormalization()
        c = estimator_bridge.compat.keras_batch_norm.BatchNormalization(axis=1)
        """)


def test_keras_batch_norm_through_a_module_alias_becomes_the_class_too():
    """training-data-analyst's 01_MNIST_TPU_Keras.ipynb (01b1de377, 2018): `l = tf.keras.layers`
    then `l.BatchNormalization(scale=False, center=True)`. The alias was followed only for dead
    modules, so the migrated notebook kept Keras 3's class: verify (deterministic run, dropout and
    shuffle off) found its moving variances 1.3e-4 and 4.8e-4 from TF 1.15's after 12 steps and
    val_loss 3.2e-4 apart, where the compat runner (Keras 2's update process-wide) matched within
    7.8e-5. The alias assignment stays: other uses (`l.Dense`) still read it."""
    assert_codemod(NAME, """
        import tensorflow as tf
        l = tf.keras.layers
        layers = tf.keras.layers

        model = tf.keras.Sequential([l.Dense(3), l.BatchNormalization(scale=False, center=True)])
        k = layers.BatchNormalization()
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_batch_norm

        l = tf.keras.layers
        layers = tf.keras.layers

        model = tf.keras.Sequential([l.Dense(3), estimator_bridge.compat.keras_batch_norm.BatchNormalization(scale=False, center=True)])
        k = estimator_bridge.compat.keras_batch_norm.BatchNormalization()
        """)
