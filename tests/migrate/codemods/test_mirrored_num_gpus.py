"""MirroredStrategyGpuCount: contrib `MirroredStrategy(num_gpus=N)` -> `tf.distribute.MirroredStrategy(devices=[...])`,
TF 1.15's device list (GPU:0..N-1, or CPU:0 for N = 0)."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "MirroredStrategyGpuCount"


def test_a_literal_gpu_count_becomes_the_device_list_tf115_mirrored_over():
    # TF2's class, spelled tf.compat.v2 in a TF1 file (where plain tf.distribute.MirroredStrategy
    # means TF1's and would move to tf.compat.v1 on the next run).
    assert_codemod(NAME, """
        import tensorflow as tf

        two = tf.contrib.distribute.MirroredStrategy(num_gpus=2)
        none = tf.contrib.distribute.MirroredStrategy(num_gpus_per_worker=0)
        """, """
        import tensorflow as tf

        two = tf.compat.v2.distribute.MirroredStrategy(devices=["/device:GPU:0", "/device:GPU:1"])
        none = tf.compat.v2.distribute.MirroredStrategy(devices=["/device:CPU:0"])
        """)


def test_a_computed_count_is_computed_at_run_time_and_cross_device_ops_is_kept():
    assert_codemod(NAME, """
        import tensorflow as tf

        strategy = tf.contrib.distribute.MirroredStrategy(
            num_gpus=FLAGS.num_gpus, cross_device_ops=tf.distribute.NcclAllReduce())
        """, """
        import tensorflow as tf

        strategy = tf.compat.v2.distribute.MirroredStrategy(
            devices=[f"/device:GPU:{index}" for index in range(FLAGS.num_gpus)] or ["/device:CPU:0"], cross_device_ops=tf.distribute.NcclAllReduce())
        """)


def test_arguments_tf2_lacks_leave_the_call_to_the_generic_findings():
    assert_unchanged(NAME, """
        import tensorflow as tf

        a = tf.contrib.distribute.MirroredStrategy(num_gpus=2, auto_shard_dataset=True)
        b = tf.contrib.distribute.MirroredStrategy(["/gpu:0"], 1)
        c = tf.distribute.MirroredStrategy(devices=["/gpu:0"])
        """)
