"""ContribLearnLoadDataset: `tf.contrib.learn.datasets.load_dataset("mnist")` -> the bridge's
`load_mnist()`. TF 1.15's load_dataset called datasets/mnist.py's `load_mnist()` for 'mnist'
(`def load_mnist(train_dir='MNIST-data'): return read_data_sets(train_dir)`, read on TF 1.15), which
estimator_bridge.compat.mnist_input_data keeps with the same default (its reader: oracle test
tests/migrate/test_mnist_input_data.py). Heldout9: tarrade/proj_DL_models_and_pipelines_with_GCP."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "ContribLearnLoadDataset"


def test_the_mnist_dataset_becomes_the_bridges_load_mnist():
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow.contrib.learn.python.learn import datasets

        mnist = tf.contrib.learn.datasets.load_dataset("mnist")
        again = datasets.load_dataset(name='mnist', size='small')
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.mnist_input_data

        mnist = estimator_bridge.compat.mnist_input_data.load_mnist()
        again = estimator_bridge.compat.mnist_input_data.load_mnist()
        """)


def test_other_datasets_a_name_in_a_variable_and_fake_data_leave_the_call():
    # (their MIG301 findings come from the table pass, which this test does not run)
    assert_unchanged(NAME, """
        import tensorflow as tf

        iris = tf.contrib.learn.datasets.load_dataset("iris")
        chosen = tf.contrib.learn.datasets.load_dataset(which)
        fake = tf.contrib.learn.datasets.load_dataset("mnist", test_with_fake_data=True)
        loader = tf.contrib.learn.datasets.load_dataset
        """)
