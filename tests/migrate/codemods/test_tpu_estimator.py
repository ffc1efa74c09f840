"""TPUEstimatorToBridge: TPUEstimator, its configs, specs and hooks -> estimator_bridge."""

from tests.migrate.codemods.support import assert_codemod

NAME = "TPUEstimatorToBridge"


def test_contrib_tpu_estimator_and_config_point_at_the_bridge():
    assert_codemod(NAME, """
        import tensorflow as tf

        config = tf.contrib.tpu.RunConfig(model_dir='m')
        estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False, train_batch_size=8)
        """, """
        import tensorflow as tf
        import estimator_bridge

        config = estimator_bridge.RunConfig(model_dir='m')
        estimator = estimator_bridge.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False, train_batch_size=8)
        """)


def test_a_from_import_is_rewritten_keeping_the_bound_name():
    assert_codemod(NAME, """
        from tensorflow.contrib.tpu import TPUEstimator

        estimator = TPUEstimator(model_fn=model_fn)
        """, """
        from estimator_bridge import TPUEstimator

        estimator = TPUEstimator(model_fn=model_fn)
        """)
