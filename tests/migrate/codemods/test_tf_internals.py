"""TFInternalsMoved: every import form of TF 1.15's tensorflow.python.training.training_ops reaches
TF 2's tensorflow.python.ops.gen_training_ops (the same generated Apply* ops; oracle test
tests/migrate/test_moved_internals.py runs a custom optimizer on both).

`from tensorflow.python.training import training_ops` was converted first (fastalgo/mnist_tpu);
the two `import` statement forms stayed as written and the file died on its import line (MIG306).
"""

from tests.migrate.codemods.support import assert_codemod

NAME = "TFInternalsMoved"


def test_import_as_an_alias_imports_the_current_module_under_the_alias():
    assert_codemod(NAME, """
        import tensorflow.python.training.training_ops as ops_lib
        update = ops_lib.apply_momentum(var, mom, lr, grad, momentum)
        """, """
        import tensorflow.python.ops.gen_training_ops as ops_lib
        update = ops_lib.apply_momentum(var, mom, lr, grad, momentum)
        """)


def test_the_plain_import_and_its_dotted_uses_follow_the_module():
    assert_codemod(NAME, """
        import tensorflow.python.training.training_ops
        update = tensorflow.python.training.training_ops.apply_momentum(var, mom, lr, grad, momentum)
        """, """
        import tensorflow.python.ops.gen_training_ops
        update = tensorflow.python.ops.gen_training_ops.apply_momentum(var, mom, lr, grad, momentum)
        """)


def test_from_import_with_an_alias_keeps_the_alias():
    assert_codemod(NAME, """
        from tensorflow.python.training import training_ops as ops_lib
        update = ops_lib.apply_momentum(var, mom, lr, grad, momentum)
        """, """
        from tensorflow.python.ops import gen_training_ops as ops_lib
        update = ops_lib.apply_momentum(var, mom, lr, grad, momentum)
        """)


def test_other_modules_on_the_same_import_line_stay():
    assert_codemod(NAME, """
        import os, tensorflow.python.training.training_ops as ops_lib
        """, """
        import os, tensorflow.python.ops.gen_training_ops as ops_lib
        """)
