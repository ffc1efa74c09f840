"""RunConfigTypeTest: `isinstance(config, <TPU RunConfig>)` is reported (MIG209), since the bridge
has one RunConfig for tf.estimator.RunConfig and the TPU one (exoplanet-ml's astronet)."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "RunConfigTypeTest"


def test_a_type_test_against_the_tpu_run_config_is_reported_in_every_spelling():
    # (the type tests stay as written; the contrib module import becomes the bridge's TF1 module)
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow.contrib import tpu as contrib_tpu
        from tensorflow.contrib.tpu import RunConfig as TPURunConfig

        def use_tpu(run_config):
          a = isinstance(run_config, tf.contrib.tpu.RunConfig)
          b = isinstance(run_config, (contrib_tpu.RunConfig, dict))
          c = issubclass(type(run_config), TPURunConfig)
          d = isinstance(run_config, tf.compat.v1.estimator.tpu.RunConfig)
          return a, b, c, d
        """, """
        import tensorflow as tf
        from tensorflow.contrib.tpu import RunConfig as TPURunConfig
        import estimator_bridge.compat.v1

        contrib_tpu = estimator_bridge.compat.v1.contrib.tpu

        def use_tpu(run_config):
          a = isinstance(run_config, tf.contrib.tpu.RunConfig)
          b = isinstance(run_config, (contrib_tpu.RunConfig, dict))
          c = issubclass(type(run_config), TPURunConfig)
          d = isinstance(run_config, tf.compat.v1.estimator.tpu.RunConfig)
          return a, b, c, d
        """, findings=["6:30 MIG209", "7:31 MIG209", "8:36 MIG209", "9:30 MIG209"])


def test_other_type_tests_are_not_reported():
    assert_unchanged(NAME, """
        import tensorflow as tf

        def check(run_config):
          a = isinstance(run_config, tf.estimator.RunConfig)
          b = isinstance(run_config, (tf.contrib.tpu.TPUConfig, dict))
          c = isinstance(run_config)
          return a, b, c
        """)
