"""InspectGetargspec: `inspect.getargspec(f)` (removed in Python 3.11) goes through the bridge's helper.

A 2018 TF-Slim fine-tuning trainer's input_data.py reads `inspect.getargspec(image_preprocessing_fn)
.args`; the migrated program stopped with AttributeError on Python 3.11. The numbers side is
tests/estimator_bridge/test_inspect_getargspec.py (oracle).
"""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "InspectGetargspec"


def test_calls_through_the_inspect_module_use_the_helper():
    assert_codemod(NAME, """
        import inspect
        import tensorflow as tf

        def parse(fn, opts):
            args = inspect.getargspec(fn).args
            names, varargs, keywords, defaults = inspect.getargspec(fn)
            return args
        """, """
        import inspect
        import tensorflow as tf
        import estimator_bridge.compat.py_inspect

        def parse(fn, opts):
            args = estimator_bridge.compat.py_inspect.getargspec(fn).args
            names, varargs, keywords, defaults = estimator_bridge.compat.py_inspect.getargspec(fn)
            return args
        """)


def test_other_inspect_functions_and_other_modules_named_so_stay():
    assert_unchanged(NAME, """
        import inspect
        import tensorflow as tf
        spec = inspect.getfullargspec(tf.identity)
        """)
    assert_unchanged(NAME, """
        import tensorflow as tf
        from tensorflow.python.util import tf_inspect as inspect
        spec = inspect.getargspec(tf.identity)
        """)
